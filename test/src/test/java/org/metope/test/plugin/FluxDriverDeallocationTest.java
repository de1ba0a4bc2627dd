package org.metope.test.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationDescriptor;
import org.metope.app.DescribedApplication;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@link org.metope.driver.FluxDriver} frees sparse fields by itself, and only those the stage
 * exchange fills. A package with no deallocation task of its own declares an evolved sparse field
 * {@code s_0} ({@code FILL_GHOST}) and a derived sparse field {@code d_0} (no {@code FILL_GHOST})
 * that its problem generator allocates on every block of a periodic row of four; {@code s_0} is 1
 * in block 0's interior and 0 elsewhere, and nothing moves (zero fluxes). Block 2, whose
 * neighbours send it only zeros, holds {@code s_0} at 0 everywhere, ghosts included, so it must
 * free it once the zero count exceeds {@code dealloc_count} (Parthenon's rule), while blocks 0, 1
 * and 3 (1 in their interior or ghosts) keep it. {@code d_0} belongs to its package and stays.
 */
class FluxDriverDeallocationTest {
  private static final String NAME = "fade";
  private static final int DEALLOC_COUNT = 2;

  @TempDir Path dir;

  /** The test package; see the class comment. */
  private static final class FadeApplication extends DescribedApplication {
    FadeApplication() {
      super(ApplicationDescriptor.of(NAME, NAME,
          "test: an evolved and a derived sparse field, neither moving"));
    }

    @Override
    public Packages processPackages(ParameterInput pin) {
      StateDescriptor pkg = new StateDescriptor(NAME);
      pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
          MetadataFlag.WITH_FLUXES, MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 0);
      pkg.addSparsePool("d", Metadata.of(MetadataFlag.CELL, MetadataFlag.DERIVED,
          MetadataFlag.ONE_COPY, MetadataFlag.SPARSE), 0);
      // Fluxes stay at the zero they were allocated with: nothing moves.
      pkg.setCalculateFluxes((md, fields) -> {});
      pkg.setEstimateTimestep(md -> 0.01);
      Packages packages = new Packages();
      packages.add(pkg);
      return packages;
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      return (md, b) -> {
        int s = md.state().fieldId("s_0");
        FieldStorage storage = md.storage();
        storage.allocateSparse(s, md.blockIndex(b));
        storage.allocateSparse(md.state().fieldId("d_0"), md.blockIndex(b));
        if (md.block(b).gid() != 0) {
          return;
        }
        IndexShape cells = md.block(b).cellBounds();
        for (int i = cells.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
            i <= cells.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
          md.data()[md.index(s, b, 0, 0, 0, i)] = 1.0;
        }
      };
    }
  }

  private Mesh run(int cycles, boolean sparse) {
    String deck = "<parthenon/job>\nproblem_id = fade\n"
        + "<parthenon/mesh>\nnx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = periodic\n"
        + "ox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 16\n"
        + "<parthenon/time>\ntlim = 100\nnlim = " + cycles + "\nintegrator = rk2\n"
        + "<parthenon/sparse>\nenable_sparse = " + sparse + "\ndealloc_count = " + DEALLOC_COUNT
        + "\n<" + NAME + ">\n";
    ParameterInput pin = ParameterInput.parse("fade.in", deck, List.of());
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    return ApplicationRunner.simulate(new FadeApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, discard), discard, InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput)).mesh();
  }

  /** The gids of the blocks on which {@code field} is allocated, in gid order (one rank). */
  private static List<Integer> allocated(Mesh mesh, String field) {
    List<Integer> gids = new ArrayList<>();
    for (MeshData md : mesh.meshData("base")) {
      int id = md.state().fieldId(field);
      for (int b = 0; b < md.numBlocks(); b++) {
        if (md.isAllocated(id, b)) {
          gids.add(md.block(b).gid());
        }
      }
    }
    return gids;
  }

  @Test
  void givenDeallocCountCycles_thenEveryFieldIsStillAllocated() {
    Mesh mesh = run(DEALLOC_COUNT, true);
    assertEquals(List.of(0, 1, 2, 3), allocated(mesh, "s_0"));
    assertEquals(List.of(0, 1, 2, 3), allocated(mesh, "d_0"));
  }

  @Test
  void givenOneCycleMore_thenTheDriverFreesTheEvolvedFieldWhereItIsZeroAndKeepsTheDerivedOne() {
    Mesh mesh = run(DEALLOC_COUNT + 1, true);
    assertEquals(List.of(0, 1, 3), allocated(mesh, "s_0"));
    // Parthenon's rule (every sparse field) would free d_0 everywhere: it is all zero.
    assertEquals(List.of(0, 1, 2, 3), allocated(mesh, "d_0"));
  }

  @Test
  void givenSparseDisabled_thenNothingIsFreed() {
    Mesh mesh = run(DEALLOC_COUNT + 3, false);
    assertEquals(List.of(0, 1, 2, 3), allocated(mesh, "s_0"));
    assertEquals(List.of(0, 1, 2, 3), allocated(mesh, "d_0"));
  }
}
