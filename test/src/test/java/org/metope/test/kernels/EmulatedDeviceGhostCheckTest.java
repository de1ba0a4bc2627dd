package org.metope.test.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.examples.ghostcheck.GhostCheck;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.comm.InProcessCluster;
import org.metope.mesh.input.ParameterInput;
import org.metope.test.RepoPaths;

/**
 * Every {@code inputs/ghost_check_*.in} deck on 2 in-process ranks, with one message per channel
 * and with coalesced messages, its kernels launched by the emulated device (the TornadoVM
 * backend's launch code with the JVM as device): no wrong ghost cell, although the other rank's
 * thread writes this rank's buffer arena while launches hold their copies: every launch pauses
 * between its tasks and its copies back, rank 0's longer than rank 1's, so that rank 1's messages
 * land in rank 0's receive slices while rank 0's load holds its copy of the buffer arena. The
 * negative control brings back the old whole-arena copy-back, which loses those messages.
 */
class EmulatedDeviceGhostCheckTest {
  /** How long the launches of rank 0 and rank 1 hold their copies before writing back. */
  private static final long[] WINDOW_MILLIS = {40, 10};

  static Stream<Arguments> decksAndCoalescing() throws IOException {
    List<Path> decks;
    try (Stream<Path> files = Files.list(RepoPaths.inputs())) {
      decks = files.filter(p -> p.getFileName().toString().startsWith("ghost_check_")).sorted()
          .toList();
    }
    assertTrue(decks.size() >= 6, "ghost_check decks found: " + decks);
    return decks.stream().flatMap(d -> Stream.of(false, true).map(c -> Arguments.of(d, c)));
  }

  /** Wrong ghost cells on rank 0 after a run on 2 ranks with the emulated device. */
  private static long wrongCells(Path deck, boolean coalesce, Fault fault) throws IOException {
    String text = Files.readString(deck);
    AtomicLong wrong = new AtomicLong(-1);
    InProcessCluster.run(2, comm -> {
      ParameterInput pin = ParameterInput.parse(deck.getFileName().toString(), text,
          List.of("parthenon/comm/coalesce=" + coalesce));
      try (EmulatedDeviceBackend device = new EmulatedDeviceBackend(fault)) {
        long window = WINDOW_MILLIS[comm.rank()];
        device.duringLaunch(() -> pause(window));
        long w = GhostCheck.run(pin, comm, InOneBoundaryCommunication.fromInput(pin, device),
            new PrintStream(new ByteArrayOutputStream()));
        if (comm.rank() == 0) {
          wrong.set(w);
        }
      }
    });
    return wrong.get();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
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
