package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.examples.PhdfTypes;
import org.metope.examples.advection.AdvectionHdf5ComparisonTest;

/**
 * Runs Parthenon's sparse_advection deck (test resources {@code parthenon/sparse_advection}, see
 * the README there) and compares with what Parthenon's own {@code sparse_advection-example} wrote
 * for it: the history (time, dt, cycle and block count of every cycle) line for line, the
 * allocation counts it printed after every cycle line for line, and the final {@code .phdf}: the
 * same blocks (matched by level and logical location), the same allocation of every field on
 * every block ({@code SparseInfo}) and every value to 1e-12, and every file's HDF5 types ({@link
 * PhdfTypes}; for {@code short} the final restart file's too).
 *
 * <p>{@code short} is the deck with {@code tlim = 0.3} (91 cycles); {@code full} is the deck as
 * shipped ({@code tlim = 2}, 604 cycles; both together take about 20 s at load 4). Metope gives
 * the same bits on 1, 2 and 4 ranks, threads and message modes ({@link
 * SparseAdvectionDeterminismTest}); Parthenon's own answers were checked to be the same on 1, 2
 * and 4 ranks (README).
 */
class SparseAdvectionParthenonComparisonTest {
  @TempDir Path dir;

  @Test
  void givenTheDeckCutToTlim03_thenHistoryAllocationsAndFinalFieldsEqualParthenons()
      throws IOException {
    compare("short");
  }

  @Test
  void givenTheShippedDeck_thenHistoryAllocationsAndFinalFieldsEqualParthenons()
      throws IOException {
    compare("full");
  }

  private void compare(String name) throws IOException {
    String[] overrides = name.equals("short")
        ? new String[] {"parthenon/time/tlim=0.3"} : new String[0];
    Path deck = SparseAdvectionRuns.resource("sparse.in");
    SparseAdvectionRuns.Result result = SparseAdvectionRuns.run(deck, dir, overrides);

    assertEquals(Files.readAllLines(SparseAdvectionRuns.resource(name + ".out3.hst")),
        Files.readAllLines(dir.resolve("sparse.out3.hst")), "history");
    List<String> allocations = result.out().lines()
        .filter(l -> l.startsWith("\tNumber of allocations")).toList();
    assertEquals(Files.readAllLines(SparseAdvectionRuns.resource(name + ".allocations.txt")),
        allocations, "allocation counts after every cycle");
    AdvectionHdf5ComparisonTest.assertSameAsParthenons(dir.resolve("sparse.out0.final.phdf"),
        SparseAdvectionRuns.resource(name + ".out0.final.phdf"));
    if (name.equals("short")) {
      PhdfTypes.assertSameTypes(dir.resolve("sparse.out1.final.rhdf"),
          SparseAdvectionRuns.resource("short.out1.final.rhdf"));
    }
  }
}
