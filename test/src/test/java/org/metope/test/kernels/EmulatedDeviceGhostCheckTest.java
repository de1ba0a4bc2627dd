package org.metope.test.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.metope.kernels.tornado.FirstLoadsOverlap;
import org.metope.comm.InProcessRun;
import org.metope.comm.ProgressDeadline;
import org.metope.mesh.input.ParameterInput;
import org.metope.test.RepoPaths;

/**
 * Every {@code inputs/ghost_check_*.in} deck on 2 in-process ranks, with one message per channel
 * and with coalesced messages, its kernels launched by the emulated device (the TornadoVM
 * backend's launch code with the JVM as device): no wrong ghost cell, although the other rank's
 * thread writes this rank's buffer arena while a launch holds its copies ({@link
 * FirstLoadsOverlap} orders the two ranks' first loads so that this happens every time). The
 * negative control brings back the old whole-arena copy-back, which loses those messages.
 */
class EmulatedDeviceGhostCheckTest {
  /** A launch waiting for the other rank gives up when the JVM made no progress this long. */
  private static final Duration STALL = Duration.ofSeconds(30);

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
    FirstLoadsOverlap overlap = new FirstLoadsOverlap(
        done -> ProgressDeadline.untilHere(STALL, done));
    InProcessRun.run(2, comm -> {
      ParameterInput pin = ParameterInput.parse(deck.getFileName().toString(), text,
          List.of("parthenon/comm/coalesce=" + coalesce));
      try (EmulatedDeviceBackend device = new EmulatedDeviceBackend(fault)) {
        device.duringLaunch(overlap.hook(comm.rank()));
        long w = GhostCheck.run(pin, comm, InOneBoundaryCommunication.fromInput(pin, device),
            new PrintStream(new ByteArrayOutputStream()));
        if (comm.rank() == 0) {
          wrong.set(w);
        }
      }
    });
    return wrong.get();
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
