package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.app.ApplicationRunner;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.input.ParameterInput;

class BurgersApplicationTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** A 2D 32^2 deck in 16^2 blocks; {@code burgers} is the body of its {@code <burgers>} block. */
  static String deck(String nghost, String burgers) {
    return "<parthenon/job>\nproblem_id = b\n"
        + "<parthenon/mesh>\n" + nghost + "\nrefinement = adaptive\nnumlevel = 2\n"
        + "nx1 = 32\nx1min = -0.5\nx1max = 0.5\nix1_bc = periodic\nox1_bc = periodic\n"
        + "nx2 = 32\nx2min = -0.5\nx2max = 0.5\nix2_bc = periodic\nox2_bc = periodic\n"
        + "nx3 = 1\nx3min = -0.5\nx3max = 0.5\n"
        + "<parthenon/meshblock>\nnx1 = 16\nnx2 = 16\nnx3 = 1\n"
        + "<parthenon/refinement0>\nmethod = derivative_order_1\nfield = U\nvector_i = 3\n"
        + "refine_tol = 0.5\nderefine_tol = 0.2\n"
        + "<parthenon/time>\nnlim = 3\ntlim = 0.4\nintegrator = rk2\n"
        + "<parthenon/output1>\nfile_type = hst\ndata_format = %.14e\ndt = 0\n"
        + "<burgers>\n" + burgers;
  }

  private int run(String deck, String... overrides) {
    ParameterInput pin = ParameterInput.parse("t.in", deck, List.of(overrides));
    return ApplicationRunner.run(new BurgersApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(out, true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void givenASmallDeck_thenItRunsAndWritesTheOctantHistory() throws IOException {
    assertEquals(0, run(deck("nghost = 4", "num_scalars = 2\n")), err());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\nDriver completed.\n"));
    List<String> rows = Files.readAllLines(dir.resolve("b.out1.hst"));
    assertTrue(rows.stream().anyMatch(r -> r.contains("=MS Mass 7")), rows.toString());
    // Header lines, then the rows of cycles 0 to 3.
    assertEquals(4, rows.stream().filter(r -> !r.startsWith("#")).count(), rows.toString());
  }

  /** Negative control of the gap this closes: before, a misspelt burgers key was not reported. */
  @Test
  void givenAMisspeltBurgersKey_thenAWarningNamesItsLineAndTheNearestKey() {
    String deck = deck("nghost = 4", "num_scalars = 1\ncfll = 0.5\n");
    int line = deck.split("\n", -1).length - 1;
    assertEquals(0, run(deck), err());
    assertTrue(err().contains("warning: t.in:" + line + ": burgers/cfll is not read by this run;"
        + " did you mean burgers/cfl?\n"), err());
  }

  @Test
  void givenWeno5AndTwoGhostsInTheDeck_thenTheNghostLineIsNamed() {
    assertEquals(2, run(deck("nghost = 2", "recon = weno5\n")));
    assertEquals("t.in:4: parthenon/mesh/nghost = \"2\": expected at least 4 for <burgers>"
        + " recon = weno5 (set nghost = 4, or recon = linear)\n", err());
  }

  @Test
  void givenWeno5AndTheDefaultGhosts_thenTheReconLineIsNamed() {
    String deck = deck("", "cfl = 0.8\nrecon = weno5\n");
    int line = deck.substring(0, deck.indexOf("recon = weno5")).split("\n", -1).length;
    assertEquals(2, run(deck));
    assertEquals("t.in:" + line + ": burgers/recon = \"weno5\": expected linear while"
        + " <parthenon/mesh> nghost = 2 (weno5 needs nghost >= 4)\n", err());
  }

  @Test
  void givenNoScalars_thenOneLine() {
    String deck = deck("nghost = 4", "num_scalars = 0\n");
    int line = deck.split("\n", -1).length - 1;
    assertEquals(2, run(deck));
    assertEquals("t.in:" + line + ": burgers/num_scalars = \"0\": expected an integer >= 1"
        + " (the benchmark needs a scalar)\n", err());
  }

  @Test
  void givenAnUnknownReconstruction_thenOneLineListingTheChoices() {
    assertEquals(2, run(deck("nghost = 4", "recon = ppm\n")));
    assertTrue(err().startsWith("t.in:"), err());
    assertTrue(err().contains("burgers/recon = \"ppm\""), err());
    assertTrue(err().contains("weno5") && err().contains("linear"), err());
    assertEquals(1, err().lines().count(), err());
  }

  @Test
  void givenLinearWithTwoGhosts_thenItRuns() {
    assertEquals(0, run(deck("nghost = 2", "recon = linear\n")), err());
  }

  @Test
  void givenLinearWithOneGhost_thenOneLine() {
    assertEquals(2, run(deck("nghost = 1", "recon = linear\n")));
    assertEquals("t.in:4: parthenon/mesh/nghost = \"1\": expected at least 2 for <burgers>"
        + " recon = linear\n", err());
  }

  /** The warnings of the run so far about {@code prolongate_ghosts}. */
  private List<String> warnings() {
    return err().lines().filter(l -> l.startsWith("warning: ") && l.contains("prolongate_ghosts"))
        .toList();
  }

  @Test
  void givenParthenonsGhostsOnARefinedMesh_thenTheRunSaysOnceThatTheSchemeIsNotConsistent() {
    assertEquals(0, run(deck("nghost = 4", "num_scalars = 1\n")), err());
    assertEquals(List.of(), warnings());
    err.reset();
    assertEquals(0, run(deck("nghost = 4", "num_scalars = 1\nprolongate_ghosts = false\n")),
        err());
    assertEquals(List.of("warning: t.in: <burgers> prolongate_ghosts = false leaves ghost cells"
        + " that face a coarser block at their last start-up or remesh values in every stage, as"
        + " Parthenon's burgers benchmark does (not a consistent scheme on a refined mesh);"
        + " prolongate_ghosts = true prolongates them"), warnings());
  }

  /** Negative control: on one level no ghost faces a coarser block, so nothing is said. */
  @Test
  void givenParthenonsGhostsOnOneLevel_thenNothingIsSaid() {
    String uniform = deck("nghost = 4", "num_scalars = 1\nprolongate_ghosts = false\n")
        .replace("refinement = adaptive\nnumlevel = 2\n", "")
        .replaceAll("<parthenon/refinement0>[^<]*", "");
    assertEquals(0, run(uniform), err());
    assertEquals(List.of(), warnings());
  }
}
