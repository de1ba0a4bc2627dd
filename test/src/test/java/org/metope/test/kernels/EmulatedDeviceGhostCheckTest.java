package org.metope.test.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.examples.ghostcheck.GhostCheck;
import org.metope.kernels.KernelKind;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.comm.InProcessCluster;
import org.metope.mesh.input.ParameterInput;
import org.metope.test.RepoPaths;

/**
 * Every {@code inputs/ghost_check_*.in} deck on 2 in-process ranks, with one message per channel
 * and with coalesced messages, its kernels launched by the emulated device (the TornadoVM
 * backend's launch code with the JVM as device): no wrong ghost cell, although the other rank's
 * thread writes this rank's buffer arena while a launch holds its copies. The two ranks' first
 * loads are ordered so that this happens every time: rank 1's load waits until
 * rank 0's load holds its copies, and rank 0's load then waits until rank 1's messages have
 * landed in its buffer arena. The negative control brings back the old whole-arena copy-back,
 * which loses those messages.
 */
class EmulatedDeviceGhostCheckTest {
  /** The longest a launch waits for the other rank; past it the run goes on unordered. */
  private static final long PATIENCE_NANOS = 10_000_000_000L;

  static Stream<Arguments> decksAndCoalescing() throws IOException {
    List<Path> decks;
    try (Stream<Path> files = Files.list(RepoPaths.inputs())) {
      decks = files.filter(p -> p.getFileName().toString().startsWith("ghost_check_")).sorted()
          .toList();
    }
    assertTrue(decks.size() >= 6, "ghost_check decks found: " + decks);
    return decks.stream().flatMap(d -> Stream.of(false, true).map(c -> Arguments.of(d, c)));
  }

  /** Wrong ghost cells after a run on 2 ranks with the emulated device. */
  private static long wrongCells(Path deck, boolean coalesce, Fault fault) throws IOException {
    String text = Files.readString(deck);
    AtomicLong wrong = new AtomicLong(-1);
    CountDownLatch rankZeroHoldsCopies = new CountDownLatch(1);
    InProcessCluster.run(2, comm -> {
      ParameterInput pin = ParameterInput.parse(deck.getFileName().toString(), text,
          List.of("parthenon/comm/coalesce=" + coalesce));
      try (EmulatedDeviceBackend device = new EmulatedDeviceBackend(fault)) {
        AtomicBoolean first = new AtomicBoolean(true);
        device.duringLaunch((kind, target) -> {
          if (kind != KernelKind.LOAD || !first.getAndSet(false)) {
            return;
          }
          if (comm.rank() == 0) {
            double[] before = target.clone();
            rankZeroHoldsCopies.countDown();
            awaitChange(before, target);
          } else {
            await(rankZeroHoldsCopies);
          }
        });
        long w = GhostCheck.run(pin, comm, InOneBoundaryCommunication.fromInput(pin, device),
            new PrintStream(new ByteArrayOutputStream()));
        if (comm.rank() == 0) {
          wrong.set(w);
        }
      }
    });
    return wrong.get();
  }

  /** Waits until another thread wrote some value of {@code array} that differs from before. */
  private static void awaitChange(double[] before, double[] array) {
    long end = System.nanoTime() + PATIENCE_NANOS;
    while (Arrays.equals(before, array) && System.nanoTime() < end) {
      Thread.onSpinWait();
      LockSupport.parkNanos(100_000);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(PATIENCE_NANOS, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @ParameterizedTest(name = "{0} on 2 ranks, coalesce={1}")
  @MethodSource("decksAndCoalescing")
  void givenDeckOnTheEmulatedDevice_thenEveryGhostCellHoldsTheExpectedValue(Path deck,
      boolean coalesce) throws IOException {
    assertEquals(0, wrongCells(deck, coalesce, Fault.NONE), deck + " coalesce=" + coalesce);
  }

  @Test
  void givenTheOldWholeArenaCopyBack_thenGhostCellsAreWrong() throws IOException {
    Path deck = RepoPaths.inputs().resolve("ghost_check_3d_periodic.in");
    long wrong = wrongCells(deck, false, Fault.WHOLE_ARENA_COPY_BACK);
    System.out.println("ghost_check_3d_periodic, 2 ranks, coalesce=false, whole-arena copy-back: "
        + wrong + " wrong ghost cells");
    assertTrue(wrong > 0);
  }
}
