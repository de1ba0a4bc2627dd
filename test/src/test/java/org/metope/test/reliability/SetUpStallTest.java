package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.app.ForwardingApplication;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.CommAbortedException;
import org.metope.comm.InProcessRun;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;
import org.metope.test.plugin.WaveApplication;

/**
 * A rank that never joins the initial ghost fill (its problem generator does not return) must not
 * hold the others at set-up: they end with one line once the deck's {@code
 * recv_bdry_buf_timeout_sec} passes without progress, as they do when a peer is lost during a
 * step. Before this was fixed, the set-up fill waited 60 s whatever the deck said, so a link cut
 * during set-up outlived the multi-host test's limit.
 */
class SetUpStallTest {
  @TempDir Path dir;

  private static final String DECK = "<parthenon/job>\nproblem_id = wave\n"
      + "<parthenon/mesh>\nnx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = periodic\n"
      + "ox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 16\n"
      + "<parthenon/time>\ntlim = 0.1\nrecv_bdry_buf_timeout_sec = 1\n<wave>\n";

  @Test
  void givenARankStuckBeforeTheGhostFill_thenTheOthersEndWithTheDecksTimeout() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReferenceArray<String> errors = new AtomicReferenceArray<>(2);
    int[] codes = new int[2];
    InProcessRun.run(2, Duration.ofSeconds(120), comm -> {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      ParameterInput pin = ParameterInput.parse("wave.in", DECK, List.of());
      try {
        codes[comm.rank()] = ApplicationRunner.run(new StuckRankOne(release),
            new ApplicationRunner.Launch(pin, RunOptions.of(dir.resolve("r" + comm.rank()), err),
                err, comm, InOneBoundaryCommunication::fromInput));
      } catch (CommAbortedException e) {
        // Rank 1, released after rank 0 gave up, finds it gone at its next collective: the
        // launcher reports that as a consequence of rank 0's failure.
        codes[comm.rank()] = -1;
      } finally {
        if (comm.rank() == 0) {
          release.countDown();
        }
      }
      errors.set(comm.rank(), bytes.toString(StandardCharsets.UTF_8));
    });
    String rank0 = errors.get(0);
    assertEquals(1, codes[0], "rank 0's exit code; it printed: " + rank0);
    // One sentence first (the pending tasks follow, as in a stalled step's report), with the
    // deck's limit, not the 60 s a task collection waits by default.
    String first = rank0.lines().findFirst().orElse("");
    assertTrue(first.startsWith("metope: the ghost fill of container base stalled: no task made"
        + " progress for 1000 ms"), rank0);
    // ... naming the task that waits and the buffers it waits for, which rank 1 never sent (a
    // multi-rank launcher relays only this line).
    assertTrue(first.matches(".*; waiting: task 'receive_bound_bufs' in list '[^']*' \\(waiting for"
        + " [0-9]+ of [0-9]+ buffers, the first ChannelKey\\[senderGid=[0-9]+, receiverGid=[0-9]+,"
        + " fieldId=[0-9]+, element=[0-9]+] from rank 1\\).*"), first);
    assertTrue(codes[1] != 0, "rank 1 cannot have finished a run without rank 0");
  }

  /** {@link WaveApplication} whose rank 1 waits in its problem generator until released. */
  private static final class StuckRankOne extends ForwardingApplication {
    private final CountDownLatch release;

    StuckRankOne(CountDownLatch release) {
      super(new WaveApplication());
      this.release = release;
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      ProblemGenerator generator = super.problemGenerator(packages);
      return (md, b) -> {
        if (md.block(b).mesh().myRank() == 1) {
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        generator.generate(md, b);
      };
    }
  }
}
