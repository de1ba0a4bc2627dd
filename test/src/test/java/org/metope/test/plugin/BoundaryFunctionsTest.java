package org.metope.test.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.app.Simulation;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.Driver;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.ParameterInput;

/**
 * An application's boundary functions reach the run: a deck face named {@code inflow} is filled
 * by the function the application registers under that name (its value flows into the domain),
 * and without one the deck is refused in one line naming the key.
 */
class BoundaryFunctionsTest {
  private static final double INFLOW = 2.0;

  @TempDir Path dir;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** The wave application with an {@code inflow} condition that sets every ghost of u to 2. */
  private static final class WithInflow implements Application {
    private final WaveApplication wave = new WaveApplication();
    private final AtomicInteger calls;
    private final boolean register;

    WithInflow(AtomicInteger calls, boolean register) {
      this.calls = calls;
      this.register = register;
    }

    @Override
    public String name() {
      return wave.name();
    }

    @Override
    public String deckBlock() {
      return wave.deckBlock();
    }

    @Override
    public String description() {
      return wave.description();
    }

    @Override
    public Packages processPackages(ParameterInput pin) {
      return wave.processPackages(pin);
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      return wave.problemGenerator(packages);
    }

    @Override
    public Driver makeDriver(Simulation sim) {
      return wave.makeDriver(sim);
    }

    @Override
    public void registerBoundaryFunctions(ParameterInput pin, BoundaryFunctions functions) {
      if (register) {
        functions.register(BoundaryFace.of(0, false), "inflow", (md, b, face, coarse) -> {
          calls.incrementAndGet();
          fillInnerGhosts(md, b, face, coarse);
        });
      }
    }
  }

  /** The ghosts of u below the first interior cell (a one-level mesh: no coarse buffers). */
  private static void fillInnerGhosts(MeshData md, int b, BoundaryFace face, boolean coarse) {
    assertEquals(BoundaryFace.of(0, false), face);
    IndexShape cells = md.block(b).cellBounds();
    int u = md.state().fieldId("u");
    int first = cells.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    for (int i = 0; i < first; i++) {
      md.data()[md.index(u, b, 0, 0, 0, i)] = INFLOW;
    }
  }

  private String deck(String innerBoundary) {
    return "<parthenon/job>\nproblem_id = wave\n"
        + "<parthenon/mesh>\nnx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = " + innerBoundary + "\n"
        + "ox1_bc = outflow\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 16\n"
        + "<parthenon/time>\nnlim = 3\nintegrator = rk1\n<wave>\nv = 1\ncfl = 0.5\n";
  }

  private int run(Application app, String deck, Mesh[] finalMesh) {
    ParameterInput pin = ParameterInput.parse("wave.in", deck, List.of());
    ApplicationRunner.Launch launch = new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(new ByteArrayOutputStream())),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput);
    if (finalMesh == null) {
      return ApplicationRunner.run(app, launch);
    }
    finalMesh[0] = ApplicationRunner.simulate(app, launch).mesh();
    return 0;
  }

  @Test
  void givenARegisteredInflow_thenItFillsTheInnerGhostsAndItsValueEntersTheDomain() {
    AtomicInteger calls = new AtomicInteger();
    Mesh[] mesh = new Mesh[1];
    run(new WithInflow(calls, true), deck("inflow"), mesh);
    assertTrue(calls.get() > 0, "the inflow function was never called");
    MeshData md = mesh[0].meshData("base").get(0);
    int u = md.state().fieldId("u");
    int first = md.block(0).cellBounds().start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    // Donor cell at Courant 0.5 from u = 1 + 0.5 sin(2 pi x) ~ 1.02 towards 2: three steps give
    // 2 - (2 - 1.02) / 8 ~ 1.88 in the first cell; periodic or outflow values would stay near 1.
    double value = md.data()[md.index(u, 0, 0, 0, 0, first)];
    assertTrue(value > 1.8 && value < INFLOW, "first cell u=" + value);
  }

  @Test
  void givenAFaceNamedUserWithoutAFunction_thenOneLineNamingTheKey() {
    assertEquals(2, run(new WithInflow(new AtomicInteger(), false), deck("user"), null));
    assertEquals("wave.in:7: parthenon/mesh/ix1_bc = \"user\": expected a boundary condition with"
        + " a function for this face: one of periodic, outflow, reflecting (the application"
        + " registers no function user for ix1_bc)\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenAnUnknownNameWithoutAFunction_thenOneLineListingTheNames() {
    assertEquals(2, run(new WithInflow(new AtomicInteger(), false), deck("inflow"), null));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("wave.in:7: parthenon/mesh/ix1_bc"
        + " = \"inflow\": expected a boundary condition: one of periodic, outflow, reflecting,"
        + " user"), err.toString(StandardCharsets.UTF_8));
  }
}
