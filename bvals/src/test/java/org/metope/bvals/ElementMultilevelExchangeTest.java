package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.bvals.ElementValueCheck.Place;
import org.metope.bvals.ElementValueCheck.Result;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The ghost check of face, edge and node fields across refinement levels: every block writes a
 * linear function of position into every value it holds in its interior (shared faces, edges and
 * corners included), ghosts start as NaN, and after one exchange every value, ghosts included,
 * must be that function: restriction (averages), the shared min-mod prolongation (exact slopes
 * of a linear function) and the internal prolongation (averages, or Toth and Roe's operator on
 * a divergence-free field) all reproduce it. Values at one position of one element must also
 * agree bit for bit between the blocks of a rank that hold it (Parthenon's ownership).
 *
 * <p>The meshes are periodic, refined in their middle; the function is linear in the position
 * wrapped into [0, 1), so that only same-level copies cross the periodic seam.
 */
class ElementMultilevelExchangeTest {
  private static final String[] FIELDS = {"b", "e", "n", "t"};

  private static StateDescriptor elements() {
    StateDescriptor pkg = new StateDescriptor("elements");
    pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build());
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("t", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .refinementOps(RefinementOps.DEFAULT
            .withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE))
        .build());
    return pkg;
  }

  /**
   * A periodic unit mesh of {@code cells} per active axis in blocks of {@code block} cells,
   * refined to level 1 around the centre, and to level 2 for {@code levels} 3.
   */
  static String deck(int dims, int cells, int block, int levels) {
    return ElementValueCheck.refinedDeck(dims, cells, block, levels, "periodic", "periodic",
        "periodic");
  }

  private static final List<String> DECKS = List.of(deck(2, 32, 8, 2), deck(2, 32, 8, 3),
      deck(3, 16, 4, 2), deck(3, 16, 4, 3));

  /**
   * The function at position {@code x} (wrapped into [0, 1)) of component {@code n} of element
   * {@code el} of field {@code name}. Field {@code t}'s (F1, F2, F3) = (1 + 2y + 3z, 5 + 7x + 11z,
   * 13 + 17x + 19y) is divergence free, which Toth and Roe's operator needs to be exact.
   */
  private static double function(String name, double[] x, TopologicalElement el, int n) {
    if (name.equals("t")) {
      return switch (el) {
        case F1 -> 1 + 2 * x[1] + 3 * x[2];
        case F2 -> 5 + 7 * x[0] + 11 * x[2];
        default -> 13 + 17 * x[0] + 19 * x[1];
      };
    }
    return 1 + 2 * x[0] + 3 * x[1] + 5 * x[2] + 10 * n + 100 * el.elementIndex();
  }

  /** The function at each place's position; after the exchange, to 1e-12 relative. */
  private static final ElementValueCheck.Expectation LINEAR = new ElementValueCheck.Expectation() {
    @Override
    public double fill(String field, Place p) {
      return function(field, position(p), p.el(), p.n());
    }

    @Override
    public boolean isRight(String field, Place p, double value) {
      double expected = function(field, position(p), p.el(), p.n());
      return Math.abs(value - expected) <= 1e-12 * (1 + Math.abs(expected));
    }
  };

  /** A place's position in the unit domain, from its half-cell index at the finest level. */
  private static double[] position(Place p) {
    double[] x = new double[3];
    for (int a = 0; a < 3; a++) {
      x[a] = p.span()[a] == 0 ? 0 : (double) p.half()[a] / p.span()[a];
    }
    return x;
  }

  private static Result fillExchangeCheck(ExchangeFixture f, boolean exchange) {
    return ElementValueCheck.fillExchangeCheck(f, FIELDS, LINEAR, exchange);
  }

  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1, 2, 3})
  void givenOneRank_thenEveryGhostIsTheFunctionAndBlocksAgree(int deck) {
    try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), InProcessCluster.singleRank(),
        elements())) {
      assertTrue(f.mesh.forest().sortedLeaves().stream().anyMatch(l -> l.level() > 0));
      Result before = fillExchangeCheck(f, false);
      assertTrue(before.wrong() > 0, "the check must be able to fail: " + before);
      Result after = fillExchangeCheck(f, true);
      ElementValueCheck.assertAllRight(after);
      assertTrue(after.shared() > 0, after.toString());
    }
  }

  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1, 2, 3})
  void givenTwoRanks_thenEveryGhostIsTheFunction(int deck) {
    for (Result r : ElementValueCheck.onTwoRanks(
        world -> new ExchangeFixture(DECKS.get(deck), world, elements()), FIELDS, LINEAR)) {
      ElementValueCheck.assertAllRight(r);
    }
  }

  @Test
  void givenADeviceBackend_thenSetUpSaysTheExchangeDoesNotCoverItYet() {
    SetupError e = assertThrows(SetupError.class, () -> new ExchangeFixture(DECKS.get(0),
        InProcessCluster.singleRank(), elements(), true, new EmulatedDeviceBackend()).close());
    assertTrue(e.getMessage().startsWith("field=b topology=FACE is FILL_GHOST, but ghost exchange"
        + " of face, edge and node fields does not cover a mesh with refinement on the "),
        e.getMessage());
  }
}
