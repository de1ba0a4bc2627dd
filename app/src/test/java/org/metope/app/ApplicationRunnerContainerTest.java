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
 * GIVEN an application whose own driver uses a container ({@code delta}, as Parthenon's {@code
 * poisson} driver does) that its {@code containerNames} does not list, THEN the run ends with exit
 * code 1 and one line naming the container and the ones allocated, not a stack trace; listing it
 * (the control) runs to the end.
 */
class ApplicationRunnerContainerTest {
  @TempDir Path dir;

  private static final String DECK = "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = outflow\nox1_bc = outflow\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\n"
      + "x3min = 0\nx3max = 1\n<parthenon/meshblock>\nnx1 = 4\n<solve>\n";

  /** A one-shot application whose driver reads the partitions of {@code delta}. */
  private static final class DeltaApplication extends OneFieldApplication {
    private final List<String> containers;

    DeltaApplication(List<String> containers) {
      super("solve", "phi", new MetadataFlag[] {Metadata.CELL, Metadata.INDEPENDENT,
          Metadata.FILL_GHOST}, sim -> () -> sim.mesh().meshData("delta").isEmpty()
              ? DriverStatus.FAILED : DriverStatus.COMPLETE);
      this.containers = containers;
    }

    @Override
    public List<String> containerNames(org.metope.driver.LowStorageIntegrator integrator) {
      return containers;
    }
  }

  private int run(List<String> containers, ByteArrayOutputStream err) {
    ParameterInput pin = ParameterInput.parse("solve.in", DECK, List.of());
    return ApplicationRunner.run(new DeltaApplication(containers), new ApplicationRunner.Launch(
        pin, RunOptions.of(dir, new PrintStream(new ByteArrayOutputStream())),
        new PrintStream(err, true, StandardCharsets.UTF_8), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
  }

  @Test
  void givenADriverUsingAContainerNotListed_thenOneSentenceAndExitOne() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(1, run(List.of("base"), err));
    assertEquals("metope: container 'delta' was asked for but the fields were allocated for [base]"
        + " only (an application lists every container it uses in containerNames)\n",
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenTheContainerListed_thenTheRunEnds() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, run(List.of("base", "delta"), err));
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }
}
