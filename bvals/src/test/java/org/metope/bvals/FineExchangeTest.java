package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.bvals.ElementValueCheck.Place;
import org.metope.bvals.ElementValueCheck.Result;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.mesh.FinePackages;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;

/**
 * The ghost check of {@code FINE} fields (Parthenon's {@code Metadata::Fine}) beside a cell field
 * of the block's resolution, on statically refined meshes of two and three levels in 2D and 3D,
 * one and two ranks, periodic and outflow: every block writes a linear function of position into
 * its interior cells, ghosts start as NaN, and after one exchange every value, ghosts included,
 * must be that function. Restriction (averages), min-mod prolongation (exact slopes of a linear
 * function) and same-level copies reproduce it exactly; so does outflow, along whose axes the
 * function is constant. Values at one position held by several blocks must agree bit for bit.
 *
 * <p>Negative controls: before the exchange the check finds wrong values; a quadratic function,
 * which neither restriction nor prolongation reproduces, leaves wrong ghosts.
 */
class FineExchangeTest {
  private static final String[] FIELDS = {"phi", "phi_fine", "v_fine"};

  private static StateDescriptor fine() {
    return FinePackages.cellAndFine();
  }

  private static final String P = "periodic";
  private static final String O = "outflow";

  /** Decks and, per deck, which axes are outflow (the function is constant along them). */
  private static final List<String> DECKS = List.of(
      ElementValueCheck.refinedDeck(2, 32, 8, 2, P, P, P),
      ElementValueCheck.refinedDeck(2, 32, 8, 3, P, P, P),
      ElementValueCheck.refinedDeck(3, 16, 4, 2, P, P, P),
      ElementValueCheck.refinedDeck(3, 16, 4, 3, P, P, P),
      ElementValueCheck.refinedDeck(2, 32, 8, 3, P, O, P),
      ElementValueCheck.refinedDeck(3, 16, 4, 3, O, P, P));
  private static final boolean[][] OUTFLOW = {{false, false, false}, {false, false, false},
      {false, false, false}, {false, false, false}, {false, true, false}, {true, false, false}};

  /** A linear function (or, with {@code square}, one with an x^2 term) of component n. */
  private static ElementValueCheck.Expectation function(int deck, boolean square) {
    boolean[] outflow = OUTFLOW[deck];
    return new ElementValueCheck.Expectation() {
      private double at(Place p) {
        double[] x = new double[3];
        for (int a = 0; a < 3; a++) {
          x[a] = p.span()[a] == 0 || outflow[a] ? 0 : (double) p.half()[a] / p.span()[a];
        }
        return 1 + 2 * x[0] + 3 * x[1] + 5 * x[2] + 10 * p.n() + (square ? 7 * x[0] * x[0] : 0);
      }

      @Override
      public double fill(String field, Place p) {
        return at(p);
      }

      @Override
      public boolean isRight(String field, Place p, double value) {
        double expected = at(p);
        return Math.abs(value - expected) <= 1e-12 * (1 + Math.abs(expected));
      }
    };
  }

  /** Every deck but the 3D two-level one, which the three-level ones cover (3D decks are slow). */
  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1, 3, 4, 5})
  void givenOneRank_thenEveryGhostOfEveryFineFieldIsTheFunctionAndBlocksAgree(int deck) {
    try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), InProcessCluster.singleRank(),
        fine())) {
      Result before = ElementValueCheck.fillExchangeCheck(f, FIELDS, function(deck, false), false);
      assertTrue(before.wrong() > 0, "the check must be able to fail: " + before);
      Result after = ElementValueCheck.fillExchangeCheck(f, FIELDS, function(deck, false), true);
      ElementValueCheck.assertAllRight(after);
    }
  }

  /** The 2D decks, and in 3D the three-level outflow deck (periodic along x2 and x3). */
  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1, 4, 5})
  void givenTwoRanks_thenEveryGhostOfEveryFineFieldIsTheFunction(int deck) {
    for (Result r : ElementValueCheck.onTwoRanks(
        world -> new ExchangeFixture(DECKS.get(deck), world, fine()), FIELDS,
        function(deck, false))) {
      ElementValueCheck.assertAllRight(r);
    }
  }

  /** The emulated device backend runs the same tables: every ghost right there too. */
  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {1, 4})
  void givenTheEmulatedDevice_thenEveryGhostOfEveryFineFieldIsTheFunction(int deck) {
    try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), InProcessCluster.singleRank(),
        fine(), true, new EmulatedDeviceBackend())) {
      ElementValueCheck.assertAllRight(
          ElementValueCheck.fillExchangeCheck(f, FIELDS, function(deck, false), true));
    }
  }

  /**
   * A sparse FINE field (a pool's, allocated on every block) across levels: restriction and
   * prolongation of its buffers give every ghost the function too, on one rank and two.
   */
  @ParameterizedTest(name = "deck {0}, {1} ranks")
  @CsvSource({"1, 1", "5, 1", "1, 2"})
  void givenASparseFineFieldOnEveryBlock_thenEveryGhostIsTheFunction(int deck, int ranks) {
    String[] fields = {"phi", "s_fine_3"};
    InProcessRun.run(ranks, world -> {
      StateDescriptor pkg = FinePackages.cellAndFine();
      pkg.addSparsePool("s_fine", Metadata.builder(Metadata.CELL, Metadata.FINE,
          Metadata.INDEPENDENT, Metadata.FILL_GHOST, Metadata.SPARSE).build(), 3);
      try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), world, pkg)) {
        int id = f.mesh.resolvedPackages().fieldId("s_fine_3");
        for (MeshData md : f.mesh.meshData("base")) {
          for (int b = 0; b < md.numBlocks(); b++) {
            md.storage().allocateSparse(id, md.blockIndex(b));
          }
        }
        ElementValueCheck.assertAllRight(
            ElementValueCheck.fillExchangeCheck(f, fields, function(deck, false), true));
      }
    });
  }

  /** Prolongation is really checked: it cannot reproduce a quadratic, so some ghosts are off. */
  @ParameterizedTest(name = "field {0}")
  @ValueSource(strings = {"phi", "phi_fine"})
  void givenAQuadratic_thenProlongatedGhostsAreWrong(String field) {
    try (ExchangeFixture f = new ExchangeFixture(DECKS.get(1), InProcessCluster.singleRank(),
        fine())) {
      Result r = ElementValueCheck.fillExchangeCheck(f, new String[] {field}, function(1, true),
          true);
      assertTrue(r.wrong() > 0, r.toString());
    }
  }
}
