package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.app.ForwardingApplication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;

class AdvectionApplicationTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String deck, String... overrides) {
    ParameterInput pin = AdvectionMeshes.pin(deck, overrides);
    return ApplicationRunner.run(new AdvectionApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(out, true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void givenASmallDeck_thenItRunsToTheEndAndExitsZero() throws IOException {
    String deck = AdvectionMeshes.deck(2, 16, 8, "profile = smooth_gaussian\n")
        + "<parthenon/time>\nnlim = 3\n<parthenon/output0>\nfile_type = hst\ndt = 0\n";
    assertEquals(0, run(deck), err());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\nDriver completed.\n"));
    assertEquals(6, Files.readAllLines(dir.resolve("parthenon.out0.hst")).size());
    assertTrue(err().contains("desired parameter Advection/cfl defaults to 0.45"), err());
  }

  @Test
  void givenAdaptiveRefinementWithABadCriterion_thenOneLineAndOtherwiseItRefinesAtStartUp()
      throws IOException {
    String deck = AdvectionMeshes.deck(2, 32, 8, "profile = hard_sphere\n")
        .replace("<parthenon/meshblock>", "refinement = adaptive\nnumlevel = 2\n"
            + "<parthenon/meshblock>")
        + "<parthenon/time>\nnlim = 2\n<parthenon/output0>\nfile_type = hst\ndt = 0\n";
    assertEquals(2, run(deck + "<parthenon/refinement0>\nmethod = magnitude\nfield = rho\n"));
    assertTrue(err().startsWith("t.in:"), err());
    assertTrue(err().contains("parthenon/refinement0/field = \"rho\": expected the name of a"
        + " field"), err());

    err.reset();
    assertEquals(0, run(deck), err());
    List<String> rows = Files.readAllLines(dir.resolve("parthenon.out0.hst"));
    // The hard sphere refines the blocks on its edge before the first step: 16 root blocks
    // become more, as the block count column (4) of the first row says.
    assertTrue(Integer.parseInt(rows.get(2).trim().split("\\s+")[3]) > 16, rows.get(2));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\nremesh: "));
  }

  @Test
  void givenNoX1Boundary_thenParthenonsRequiredKeyIsReported() {
    String deck = AdvectionMeshes.deck(1, 16, 8, "").replace("ix1_bc = periodic\n", "");
    assertEquals(2, run(deck));
    assertEquals("t.in: parthenon/mesh/ix1_bc is required: expected a value in the deck or on"
        + " the command line\n", err());
  }

  @Test
  void givenZeroThreads_thenOneLine() {
    assertEquals(2, run(AdvectionMeshes.deck(1, 16, 8, ""), "metope/threads=0"));
    assertEquals("command line: metope/threads = \"0\": expected an integer from 1 to 1024\n", err());
  }

  @Test
  void givenAStepThatFails_thenOneLineNamingTheTaskAndExitOne() {
    String deck = AdvectionMeshes.deck(1, 16, 8, "profile = smooth_gaussian\n")
        + "<parthenon/time>\nnlim = 2\n";
    ParameterInput pin = AdvectionMeshes.pin(deck);
    int code = ApplicationRunner.run(new AdvectionApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(out, true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        FailingBoundaries::new));
    assertEquals(1, code);
    assertTrue(err().endsWith("\nmetope: step failed to complete all tasks: task"
        + " 'ApplyBoundaryConditions' in list 'region0[0]' returned FAIL\n"),
        err());
  }

  @Test
  void givenAStepThatStalls_thenTheReportListsPendingTasksAndEveryChannel() {
    String deck = AdvectionMeshes.deck(1, 16, 8, "profile = smooth_gaussian\n")
        + "<parthenon/time>\nnlim = 2\nrecv_bdry_buf_timeout_sec = 0.3\n";
    ParameterInput pin = AdvectionMeshes.pin(deck);
    int code = ApplicationRunner.run(new AdvectionApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(out, true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        StallingBoundaries::new));
    assertEquals(1, code);
    String report = err();
    assertTrue(report.contains("\nmetope: stage 1 of cycle 0 stalled: no task made progress for"
        + " 300 ms; waiting: task 'receive_lost_message' in list "), report);
    assertTrue(report.contains("task 'receive_lost_message': ready, last returned INCOMPLETE"),
        report);
    assertTrue(report.contains("\nchannels of rank 0: boundaryValues=4"), report);
    // Two 8-cell blocks on a periodic line: each block's two faces, one channel each.
    assertTrue(report.contains("ChannelKey[senderGid=0, receiverGid=1"), report);
  }

  /** The L1 error (column 5) of the run of {@code inputs/advection_1d.in} with {@code overrides}. */
  private double waveError(List<String> warnings, String... overrides) throws IOException {
    Path runDir = Files.createTempDirectory(dir, "wave");
    AdvectionRuns.Result r = AdvectionRuns.run(Path.of("../inputs/advection_1d.in"), runDir,
        overrides);
    r.err().lines().filter(l -> l.startsWith("warning: ")).forEach(warnings::add);
    List<String> rows = Files.readAllLines(runDir.resolve(AdvectionError.FILE));
    return Double.parseDouble(rows.get(rows.size() - 1).trim().split("\\s+")[4]);
  }

  /**
   * {@code inputs/advection_1d.in} carries a sine wave once round a periodic box, so a consistent
   * scheme brings it back up to its truncation error, which with every integrator is about that
   * of the deck's own rk3 (where Parthenon's update is the low-storage scheme). The application
   * asks for Parthenon's update; with vl2 and rk4 the deck's default runs the low-storage one
   * silently, and {@code <metope> stage_update = parthenon} runs Parthenon's, says so once, and
   * does not bring the wave back.
   */
  @Test
  void givenVl2OrRk4_thenTheWaveComesBackUnlessTheDeckAsksForParthenonsUpdate()
      throws IOException {
    List<String> warnings = new ArrayList<>();
    double rk3 = waveError(warnings);
    assertTrue(rk3 < 0.02, "rk3 L1 error " + rk3);
    for (String integrator : List.of("vl2", "rk4")) {
      String choice = "parthenon/time/integrator=" + integrator;
      double consistent = waveError(warnings, choice);
      assertEquals(rk3, consistent, 0.1 * rk3, integrator);
      assertEquals(List.of(), warnings, integrator);
      double parthenon = waveError(warnings, choice, "metope/stage_update=parthenon");
      assertTrue(parthenon > 5 * rk3, integrator + ": L1 error " + parthenon);
      assertEquals(1, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).contains("integrator = " + integrator + " runs Parthenon's"
          + " advection-example stage update") && warnings.get(0).endsWith(
          "stage_update = consistent selects one that is"), warnings.get(0));
      warnings.clear();
    }
  }

  /**
   * The problem generator is the per-block initialisation hook (Parthenon's {@code
   * ProblemGenerator}): the framework runs it on every block again after each start-up
   * refinement, so the blocks a refinement made hold the generator's values, not values
   * prolongated from their parents (which smooth the sphere's edge). Running it once more on the
   * final mesh therefore changes no cell.
   */
  @Test
  void givenStartUpRefinement_thenEveryFinalBlockHoldsTheProblemGeneratorsValues() {
    String deck = AdvectionMeshes.deck(2, 32, 8, "profile = hard_sphere\n")
        .replace("<parthenon/meshblock>", "refinement = adaptive\nnumlevel = 3\n"
            + "<parthenon/meshblock>")
        + "<parthenon/time>\nnlim = 0\n";
    Mesh mesh = AdvectionRuns.run(AdvectionMeshes.pin(deck), dir, InProcessCluster.singleRank())
        .mesh();
    assertTrue(mesh.totalBlocks() > 16, "refined at start-up: " + mesh.totalBlocks());
    double[] generated = AdvectionRuns.advected(mesh);
    AdvectionProblem problem = new AdvectionProblem(
        mesh.packages().get(AdvectionPackage.NAME).params());
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        problem.generate(md, b);
      }
    }
    assertArrayEquals(AdvectionRuns.advected(mesh), generated);
  }

  /**
   * A package author who lists too few containers (here only {@code base}, where rk2 needs
   * {@code 1} too) gets one line naming the container and what to change, and exit code 1.
   */
  @Test
  void givenAnApplicationThatForgetsAContainer_thenOneLineNamesIt() {
    ForwardingApplication forgetful = new ForwardingApplication(new AdvectionApplication()) {
      @Override
      public List<String> containerNames(LowStorageIntegrator integrator) {
        return List.of("base");
      }
    };
    ParameterInput pin = AdvectionMeshes.pin(AdvectionMeshes.deck(2, 16, 8,
        "profile = smooth_gaussian\n") + "<parthenon/time>\nnlim = 3\n");
    int code = ApplicationRunner.run(forgetful, new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(out, true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
    assertEquals(1, code, err());
    List<String> errors = err().lines().filter(l -> !l.startsWith("warning: ")).toList();
    assertEquals(List.of("metope: container '1' was asked for but the fields were allocated for"
        + " [base] only (an application lists every container it uses in containerNames)"),
        errors);
  }
}
