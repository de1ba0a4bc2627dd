package org.metope.test.bvals;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.examples.ghostcheck.GhostCheck;
import org.metope.comm.InProcessRun;
import org.metope.mesh.input.ParameterInput;

/**
 * Every {@code inputs/ghost_check_*.in} deck fills every ghost cell correctly on 1, 2 and 4
 * in-process ranks: the analytic self-check of the whole boundary exchange (same level, coarser and
 * finer neighbours, periodic wraps, physical boundaries). Cross-rank channels travel in coalesced
 * messages by default; each deck also runs with one message per channel ({@code
 * parthenon/comm/coalesce=false}) and with one block per partition, so that coalesced messages
 * from several sending partitions feed several receiving partitions.
 */
class GhostCheckDecksTest {

  static Stream<Arguments> decksAndRanks() throws IOException {
    List<Path> decks;
    try (Stream<Path> files = Files.list(repoInputs())) {
      decks = files.filter(p -> p.getFileName().toString().startsWith("ghost_check_")).sorted()
          .toList();
    }
    assertTrue(decks.size() >= 6, "ghost_check decks found: " + decks);
    return decks.stream().flatMap(d -> Stream.of(1, 2, 4).map(n -> Arguments.of(d, n)));
  }

  private static Path repoInputs() {
    Path dir = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(dir.resolve("inputs"))) {
      dir = dir.getParent();
    }
    return dir.resolve("inputs");
  }

  static Stream<Arguments> decksRanksAndCommSettings() throws IOException {
    List<List<String>> settings = List.of(
        List.of("parthenon/comm/coalesce=false"),
        List.of("parthenon/mesh/pack_size=1"),
        List.of("parthenon/mesh/pack_size=2", "parthenon/comm/coalesce=false"));
    return decksAndRanks().filter(a -> (int) a.get()[1] > 1)
        .flatMap(a -> settings.stream().map(o -> Arguments.of(a.get()[0], a.get()[1], o)));
  }

  private static long run(ParameterInput template, String text, int ranks) {
    return run(template, text, ranks, List.of());
  }

  private static long run(ParameterInput template, String text, int ranks,
      List<String> overrides) {
    AtomicLong wrong = new AtomicLong(-1);
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse(template.deckName(), text, overrides);
      long w = GhostCheck.run(pin, comm, InOneBoundaryCommunication.fromInput(pin),
          new PrintStream(new ByteArrayOutputStream()));
      if (comm.rank() == 0) {
        wrong.set(w);
      }
    });
    return wrong.get();
  }

  @ParameterizedTest(name = "{0} on {1} ranks")
  @MethodSource("decksAndRanks")
  void givenDeck_thenEveryGhostCellHoldsTheExpectedValue(Path deck, int ranks) throws IOException {
    String text = Files.readString(deck);
    ParameterInput template = ParameterInput.parse(deck.getFileName().toString(), text, List.of());
    assertEquals(0, run(template, text, ranks), deck + " on " + ranks + " ranks");
  }

  @ParameterizedTest(name = "{0} on {1} ranks with {2}")
  @MethodSource("decksRanksAndCommSettings")
  void givenDeckWithOtherCommSettings_thenEveryGhostCellHoldsTheExpectedValue(Path deck,
      int ranks, List<String> overrides) throws IOException {
    String text = Files.readString(deck);
    ParameterInput template = ParameterInput.parse(deck.getFileName().toString(), text, List.of());
    assertEquals(0, run(template, text, ranks, overrides), deck + " on " + ranks + " ranks with "
        + overrides);
  }

  @ParameterizedTest(name = "{0} with nghost = 4")
  @ValueSource(strings = {"ghost_check_2d_static_periodic.in", "ghost_check_3d_static_periodic.in",
      "ghost_check_2d_static_outflow.in"})
  void givenRefinedDeckWithFourGhostLayers_thenEveryGhostCellHoldsTheExpectedValue(String name)
      throws IOException {
    // Odd ghost widths are refused with refinement (MeshConfigurationTest); the even ones past
    // the default must all work, coarse buffers and prolongation included.
    String text = Files.readString(repoInputs().resolve(name));
    ParameterInput template = ParameterInput.parse(name, text, List.of());
    assertEquals(0, run(template, text, 2, List.of("parthenon/mesh/nghost=4")), name);
  }

  @Test
  void givenFineCoarseInterfaceAcrossThePeriodicWrap_thenTheCheckReportsWrongCells()
      throws IOException {
    // Refining next to the wrap makes prolongation read coarse data from the other side of the
    // mesh, where the linear function jumps: the check must see it.
    String text = Files.readString(repoInputs().resolve("ghost_check_2d_static_periodic.in"))
        .replace("x1min = 0.4\nx1max = 0.6", "x1min = 0.0\nx1max = 0.1");
    ParameterInput template = ParameterInput.parse("wrap.in", text, List.of());
    assertTrue(run(template, text, 1) > 0);
  }
}
