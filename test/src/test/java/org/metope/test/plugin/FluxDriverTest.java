package org.metope.test.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.mesh.WithoutFluxCorrection;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
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
 * The {@link org.metope.driver.FluxDriver} on problems with answers known without it: the decay
 * ODE {@code du/dt = -u} (a source term) converges at each integrator's order to {@code exp(-t)};
 * donor-cell advection at Courant number 1 with {@code rk1} moves the profile by exactly one cell
 * per step; total {@code u} is conserved across fine/coarse faces, and not without flux correction
 * (negative control).
 */
class FluxDriverTest {
  @TempDir Path dir;

  private static String deck(String mesh, String time, String wave) {
    return "<parthenon/job>\nproblem_id = wave\n"
        + "<parthenon/mesh>\nnx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = periodic\n"
        + "ox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + mesh
        + "<parthenon/meshblock>\nnx1 = 16\n"
        + "<parthenon/time>\n" + time + "<wave>\n" + wave;
  }

  private Mesh run(String deck, String... overrides) {
    return run(deck, InOneBoundaryCommunication::fromInput, overrides);
  }

  private Mesh run(String deck, Function<ParameterInput, BoundaryCommunication> boundaries,
      String... overrides) {
    ParameterInput pin = ParameterInput.parse("wave.in", deck, List.of(overrides));
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    return ApplicationRunner.simulate(new WaveApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, discard), discard, InProcessCluster.singleRank(), boundaries)).mesh();
  }

  /** Every interior value of {@code u}, blocks in gid order (one rank), {@code i} fastest. */
  private static double[] values(Mesh mesh) {
    double[] all = new double[64];
    int n = 0;
    for (MeshData md : mesh.meshData("base")) {
      int u = md.state().fieldId("u");
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        for (int i = cells.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
            i <= cells.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
          all[n++] = md.data()[md.index(u, b, 0, 0, 0, i)];
        }
      }
    }
    assertEquals(64, n);
    return all;
  }

  private static double total(Mesh mesh) {
    double sum = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        sum += WaveApplication.integral(md, b);
      }
    }
    return sum;
  }

  /**
   * The largest error of {@code u} against {@code exp(-1)} after {@code tlim = 1} with step dt;
   * {@code advection_example} also sets {@code <metope> stage_update = parthenon}, without which
   * the driver runs the low-storage update where Parthenon's is not consistent.
   */
  private double decayError(String integrator, String update, double dt) {
    String deck = deck("", "tlim = 1\nintegrator = " + integrator + "\ndt_force = " + dt + "\n",
        "v = 0\nprofile = uniform\ndecay = 1\nstage_update = " + update + "\n");
    Mesh mesh = update.equals("advection_example") ? run(deck, "metope/stage_update=parthenon")
        : run(deck);
    double worst = 0.0;
    for (double u : values(mesh)) {
      worst = Math.max(worst, Math.abs(u - Math.exp(-1.0)));
    }
    return worst;
  }

  @ParameterizedTest(name = "{0} converges at order {1}")
  @CsvSource({"rk1, 1", "rk2, 2", "vl2, 2", "rk3, 3", "rk4, 4"})
  void givenTheDecayOde_thenEachIntegratorConvergesAtItsOrder(String integrator, int order) {
    double coarse = decayError(integrator, "low_storage", 0.1);
    double fine = decayError(integrator, "low_storage", 0.05);
    double observed = Math.log(coarse / fine) / Math.log(2.0);
    assertEquals(order, observed, 0.15, integrator + ": errors " + coarse + ", " + fine);
  }

  @Test
  void givenParthenonsAdvectionUpdate_thenRk2AgreesAndVl2DoesNotConverge() {
    assertEquals(decayError("rk2", "low_storage", 0.05),
        decayError("rk2", "advection_example", 0.05), 1e-15);
    // Parthenon's advection-example update applies vl2's stages with 1.5 dt per step.
    double coarse = decayError("vl2", "advection_example", 0.1);
    double fine = decayError("vl2", "advection_example", 0.05);
    assertTrue(fine > 0.1 && fine > 0.9 * coarse, "errors " + coarse + ", " + fine);
  }

  /** The application's choice of Parthenon's update gives way where it is not consistent. */
  @Test
  void givenParthenonsAdvectionUpdateChosenByTheApplicationOnly_thenVl2Converges() {
    String deck = deck("", "tlim = 1\nintegrator = vl2\ndt_force = 0.05\n",
        "v = 0\nprofile = uniform\ndecay = 1\nstage_update = advection_example\n");
    double worst = 0.0;
    for (double u : values(run(deck))) {
      worst = Math.max(worst, Math.abs(u - Math.exp(-1.0)));
    }
    assertEquals(decayError("vl2", "low_storage", 0.05), worst, 1e-15);
  }

  @Test
  void givenCourantNumberOneAndRk1_thenTheProfileMovesOneCellPerStep() {
    String wave = "v = 1\ncfl = 1\n";
    double[] start = values(run(deck("", "nlim = 0\nintegrator = rk1\n", wave)));
    double[] moved = values(run(deck("", "nlim = 5\nintegrator = rk1\n", wave)));
    for (int i = 0; i < 64; i++) {
      assertEquals(start[(i - 5 + 64) % 64], moved[i], 1e-14, "cell " + i);
    }
  }

  private static final String REFINED = "refinement = static\nnumlevel = 2\n"
      + "<parthenon/static_refinement0>\nx1min = 0.3\nx1max = 0.55\nlevel = 1\n";

  @Test
  void givenAFineRegion_thenTotalIsConservedAndWithoutFluxCorrectionItIsNot() {
    String time = "nlim = 40\nintegrator = rk2\n";
    double initial = total(run(deck(REFINED, "nlim = 0\n", "")));
    Mesh refined = run(deck(REFINED, time, ""));
    assertTrue(refined.totalBlocks() > 4, "blocks=" + refined.totalBlocks());
    assertEquals(initial, total(refined), 1e-14 * initial);
    double uncorrected = total(run(deck(REFINED, time, ""),
        pin -> new WithoutFluxCorrection(InOneBoundaryCommunication.fromInput(pin))));
    assertTrue(Math.abs(uncorrected - initial) > 1e-8 * initial,
        "without flux correction: " + uncorrected + " vs " + initial);
  }

  /** The line a set-up of application {@code frozen} with package {@code pkg} ends with. */
  private String setUpError(StateDescriptor pkg) {
    ParameterInput pin = ParameterInput.parse("wave.in", deck("", "nlim = 1\n", ""), List.of());
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Application frozen = new Application() {
      @Override
      public String name() {
        return "frozen";
      }

      @Override
      public String deckBlock() {
        return "wave";
      }

      @Override
      public String description() {
        return "a package the flux driver refuses";
      }

      @Override
      public Packages processPackages(ParameterInput p) {
        Packages packages = new Packages();
        packages.add(pkg);
        return packages;
      }

      @Override
      public org.metope.driver.ProblemGenerator problemGenerator(Packages packages) {
        return (md, b) -> { };
      }
    };
    int code = ApplicationRunner.run(frozen, new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(new ByteArrayOutputStream())),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
    assertEquals(1, code);
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void givenFieldsWithFluxesButNoFluxFunction_thenOneLineAndExitOne() {
    StateDescriptor pkg = new StateDescriptor("frozen");
    pkg.addField("u", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.WITH_FLUXES, MetadataFlag.FILL_GHOST).build());
    assertEquals("metope: application frozen cannot be set up: package frozen declares fields"
        + " WITH_FLUXES but no flux function (StateDescriptor.setCalculateFluxes)\n",
        setUpError(pkg));
  }
}
