package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.examples.fieldloop.FieldLoopApplication;
import org.metope.examples.fineadvection.FineAdvectionApplication;
import org.metope.mesh.Mesh;
import org.metope.mesh.SteadyAllocation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * What a warm call of a package's per-step callbacks allocates: its flux function, derived
 * fields, time step and refinement check, on every partition of the mesh its deck sets up (at
 * t = 0). Each call reads its fields through views; the views are built once per partition and
 * kept by it, so a warm step builds none.
 */
class PackageCallbackAllocationTest {
  private static final int WARMUP = 200;
  private static final int WINDOWS = 4;
  private static final int STEPS = 50;

  @TempDir Path dir;

  @Test
  void givenFineAdvectionWarm_thenItsCallbacksAllocateNothing() {
    Mesh mesh = setUp(new FineAdvectionApplication(), "../inputs/fine_advection.in",
        "parthenon/output0/dt=-1", "parthenon/output1/dt=-1");
    long bytes = SteadyAllocation.fewestBytes(WARMUP, WINDOWS, STEPS, step(mesh));
    // Building the views (and small arrays) in each call, as before they were kept, was 13,056
    // bytes a step on these 8 partitions; one 16-byte object a step would be 800 bytes a window.
    assertTrue(bytes < 16 * STEPS, bytes + " bytes in " + STEPS + " steps");
  }

  @Test
  void givenFieldLoopWarm_thenItsCallbacksAllocateNothing() {
    Mesh mesh = setUp(new FieldLoopApplication(), "../inputs/field_loop.in",
        "parthenon/output1/dt=-1");
    long bytes = SteadyAllocation.fewestBytes(WARMUP, WINDOWS, STEPS, step(mesh));
    // Building the view of B in each call was 3,840 bytes a step.
    assertTrue(bytes < 16 * STEPS, bytes + " bytes in " + STEPS + " steps");
  }

  /** The mesh of {@code deck} at t = 0: 64^2 cells in 16^2 blocks, one level, 16 blocks. */
  private Mesh setUp(Application app, String deck, String... overrides) {
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    List<String> deckOverrides = new ArrayList<>(List.of("parthenon/time/nlim=0",
        "parthenon/mesh/refinement=none", "parthenon/mesh/nx1=64", "parthenon/mesh/nx2=64",
        "parthenon/meshblock/nx1=16", "parthenon/meshblock/nx2=16", "parthenon/mesh/pack_size=2"));
    deckOverrides.addAll(List.of(overrides));
    ParameterInput pin = ParameterInput.load(Path.of(deck), deckOverrides);
    return ApplicationRunner.simulate(app, new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, discard), discard, InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput)).mesh();
  }

  private static final int[] NO_FIELDS = new int[0];
  private static final int[] TAGS = new int[64];

  /** Every package callback a step calls, on every partition of the base container. */
  private static Runnable step(Mesh mesh) {
    List<MeshData> partitions = mesh.meshData("base");
    List<StateDescriptor> packages = mesh.packages().all();
    return () -> {
      for (int p = 0; p < partitions.size(); p++) {
        MeshData md = partitions.get(p);
        for (int k = 0; k < packages.size(); k++) {
          StateDescriptor pkg = packages.get(k);
          if (pkg.calculateFluxes() != null) {
            pkg.calculateFluxes().calculateFluxes(md, NO_FIELDS);
          }
          pkg.fillDerived(md);
          pkg.estimateTimestep(md);
          pkg.checkRefinement(md, TAGS);
        }
      }
    };
  }
}
