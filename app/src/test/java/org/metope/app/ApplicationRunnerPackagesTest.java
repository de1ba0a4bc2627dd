package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.DriverStatus;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.input.ParameterInput;

/**
 * GIVEN an application whose package declares a field the framework refuses ({@code FINE} on a
 * {@code FACE} field; a {@code SPARSE} field through {@code addField}), THEN the run ends with
 * exit code 1 and one line naming the application and the refusal, not a stack trace; the same
 * field on {@code CELL} (the control) runs to the end.
 */
class ApplicationRunnerPackagesTest {
  @TempDir Path dir;

  private static final String DECK = "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = outflow\nox1_bc = outflow\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\n"
      + "x3min = 0\nx3max = 1\n<parthenon/meshblock>\nnx1 = 4\n<solve>\n";

  /** A one-shot application with one field {@code u_fine} of the given metadata flags. */
  private static Application fine(MetadataFlag... flags) {
    return new OneFieldApplication("solve", "u_fine", flags, sim -> () -> DriverStatus.COMPLETE);
  }

  private int run(Application app, ByteArrayOutputStream err) {
    ParameterInput pin = ParameterInput.parse("solve.in", DECK, List.of());
    return ApplicationRunner.run(app, new ApplicationRunner.Launch(
        pin, RunOptions.of(dir, new PrintStream(new ByteArrayOutputStream())),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
  }

  @Test
  void givenFineOnAFaceField_thenOneSentenceAndExitOne() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(1, run(fine(Metadata.FACE, Metadata.FINE,
        Metadata.INDEPENDENT, Metadata.FILL_GHOST), err));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, text.lines().count(), text);
    assertEquals(true, text.startsWith("metope: application solve cannot be set up: invalid"
        + " metadata: FINE needs CELL topology"), text);
  }

  @Test
  void givenASparseFieldThroughAddField_thenOneSentenceAndExitOne() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(1, run(fine(Metadata.CELL, Metadata.FINE, Metadata.SPARSE,
        Metadata.INDEPENDENT, Metadata.FILL_GHOST), err));
    assertEquals("metope: application solve cannot be set up: package=solve field=u_fine is"
        + " SPARSE: declare it with addSparsePool\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenFineOnACellField_thenTheRunEnds() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, run(fine(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST), err));
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }
}
