package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.examples.advection.AdvectionApplication;
import org.metope.examples.sparseadvection.SparseAdvectionApplication;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's own regression decks (test resources {@code parthenon/regression}, see the README
 * there) run without a warning that a key is not read: every key in them is one Parthenon reads,
 * so a warning would send a Parthenon user after a mistake that is not there. One cycle each.
 */
class ParthenonRegressionDecksTest {
  @TempDir Path dir;

  private static final List<String> DECKS = List.of("advection_outflow.in",
      "advection_performance.in", "advection_bvals.in", "output_hdf5.in", "sparse_advection.in");

  /** The warnings of one cycle of {@code deck} (its text) that say a block or key is not read. */
  private List<String> unreadWarnings(String name, String deck) throws Exception {
    Application app = name.startsWith("sparse") ? new SparseAdvectionApplication()
        : new AdvectionApplication();
    ParameterInput pin = ParameterInput.parse(name, deck, List.of("parthenon/time/nlim=1"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ApplicationRunner.run(app, new ApplicationRunner.Launch(pin,
        RunOptions.of(Files.createTempDirectory(dir, "run"), new PrintStream(
            new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, name + ": " + text);
    return text.lines().filter(l -> l.startsWith("warning: ") && l.contains("not read"))
        .toList();
  }

  private static String deck(String name) throws Exception {
    return Files.readString(Path.of(ParthenonRegressionDecksTest.class
        .getResource("/parthenon/regression/" + name).toURI()));
  }

  @Test
  void givenParthenonsRegressionDecks_thenNoKeyIsReportedUnread() throws Exception {
    for (String name : DECKS) {
      assertEquals(List.of(), unreadWarnings(name, deck(name)), name);
    }
  }

  /** Negative control: a key added to one of them that nothing reads is reported. */
  @Test
  void givenAKeyNobodyReads_thenItIsReported() throws Exception {
    String deck = deck("advection_outflow.in")
        .replace("<Advection>\n", "<Advection>\ncfll = 0.3\n");
    List<String> warnings = unreadWarnings("advection_outflow.in", deck);
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("Advection/cfll"), warnings.get(0));
  }
}
