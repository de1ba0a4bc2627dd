package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.metope.mesh.Mesh;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The ghost check of face, edge and node fields: every block writes a known function of the
 * global position of each value it holds in its interior (shared faces, edges and corners
 * included), plus {@code 1e-3 * gid}, so that blocks disagree on shared values; ghosts start as
 * NaN. After one exchange every value a block holds, ghosts and shared values alike, must be the
 * function plus the owner's {@code 1e-3 * gid}, where the owner of a position is the block that
 * holds it in its interior with the highest gid (Parthenon's rule on one level: highest Morton
 * number, which gids follow). Counted: every wrong value, and every position on which two blocks
 * of a rank disagree.
 */
class ElementExchangeTest {
  private static final String[] FIELDS = {"b", "e", "n"};

  private static StateDescriptor elements() {
    StateDescriptor pkg = new StateDescriptor("elements");
    pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build());
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    return pkg;
  }

  /** A periodic mesh of {@code cells} per axis (0: inactive) in blocks of 8 cells per axis. */
  private static String deck(int... cells) {
    StringBuilder s = new StringBuilder("<parthenon/mesh>\nrefinement = none\npack_size = 4\n");
    for (int a = 0; a < cells.length; a++) {
      s.append("nx").append(a + 1).append(" = ").append(cells[a]).append("\nx").append(a + 1)
          .append("min = 0\nx").append(a + 1).append("max = 1\nix").append(a + 1)
          .append("_bc = periodic\nox").append(a + 1).append("_bc = periodic\n");
    }
    for (int a = cells.length; a < 3; a++) {
      s.append("nx").append(a + 1).append(" = 1\nx").append(a + 1).append("min = 0\nx")
          .append(a + 1).append("max = 1\n");
    }
    s.append("<parthenon/meshblock>\n");
    for (int a = 0; a < 3; a++) {
      s.append("nx").append(a + 1).append(a < cells.length ? " = 8\n" : " = 1\n");
    }
    return s.toString();
  }

  private static final List<String> DECKS = List.of(deck(24, 16), deck(24, 16, 16));

  /** The value at global position {@code g} of component {@code n} of element {@code el}. */
  private static double function(long[] g, TopologicalElement el, int n) {
    return 1 + g[0] + 100 * g[1] + 10000 * g[2] + 1e6 * el.elementIndex() + 1e7 * n;
  }

  /** The function plus {@code 1e-3 * gid} of the writer; after the exchange, of the owner. */
  private static final ElementValueCheck.Expectation OWNERS = new ElementValueCheck.Expectation() {
    @Override
    public double fill(String field, Place p) {
      return function(p.g(), p.el(), p.n()) + 1e-3 * p.md().block(p.b()).gid();
    }

    @Override
    public boolean isRight(String field, Place p, double value) {
      TopologicalElement el = p.el();
      long owner = owner(p.md().block(0).mesh(), p.g(),
          new int[] {el.offsetI(), el.offsetJ(), el.offsetK()}, p.md().block(p.b()).cellBounds());
      return Double.doubleToLongBits(value)
          == Double.doubleToLongBits(function(p.g(), el, p.n()) + 1e-3 * owner);
    }
  };

  private static Result fillExchangeCheck(ExchangeFixture f, boolean exchange) {
    return ElementValueCheck.fillExchangeCheck(f, FIELDS, OWNERS, exchange);
  }

  /** The highest gid of the blocks that hold position {@code g} of an element in their interior. */
  private static long owner(Mesh mesh, long[] g, int[] top, IndexShape shape) {
    List<LogicalLocation> leaves = mesh.forest().sortedLeaves();
    long best = -1;
    for (int gid = 0; gid < leaves.size(); gid++) {
      LogicalLocation loc = leaves.get(gid);
      boolean holds = true;
      for (int a = 0; a < 3 && holds; a++) {
        if (shape.isActive(a)) {
          int nx = shape.interiorNcells(a);
          long cells = nx * mesh.config().rootGrid().extent(a, loc.level());
          holds = Math.floorMod(g[a] - loc.l(a) * nx, cells) <= nx - 1 + top[a];
        }
      }
      if (holds) {
        best = gid;
      }
    }
    return best;
  }

  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1})
  void givenOneRank_thenEveryGhostAndSharedValueIsTheOwnersAndBlocksAgree(int deck) {
    try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), InProcessCluster.singleRank(),
        elements())) {
      Result before = fillExchangeCheck(f, false);
      assertTrue(before.wrong() > 0 && before.disagreeing() > 0,
          "the check must be able to fail: " + before);
      Result after = fillExchangeCheck(f, true);
      ElementValueCheck.assertAllRight(after);
      assertTrue(after.shared() > 0, after.toString());
    }
  }

  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1})
  void givenTwoRanks_thenEveryGhostAndSharedValueIsTheOwners(int deck) {
    for (Result r : ElementValueCheck.onTwoRanks(
        world -> new ExchangeFixture(DECKS.get(deck), world, elements()), FIELDS, OWNERS)) {
      ElementValueCheck.assertAllRight(r);
    }
  }

  /** The device launches unload row by row (RowKernels): the same masks, the same values. */
  @Test
  void givenTheEmulatedDevice_thenEveryGhostAndSharedValueIsTheOwners() {
    for (Result r : ElementValueCheck.onTwoRanks(world -> new ExchangeFixture(DECKS.get(1),
        world, elements(), false, new EmulatedDeviceBackend()), FIELDS, OWNERS)) {
      ElementValueCheck.assertAllRight(r);
    }
  }

  @Test
  void givenASparseFaceField_thenSetUpSaysTheExchangeDoesNotCoverItYet() {
    StateDescriptor pkg = new StateDescriptor("sparse_faces");
    pkg.addSparsePool("s", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST,
        Metadata.SPARSE), 1);
    SetupError e = assertThrows(SetupError.class,
        () -> new ExchangeFixture(DECKS.get(0), InProcessCluster.singleRank(), pkg).close());
    assertEquals("field=s_1 topology=FACE is FILL_GHOST, but ghost exchange of face, edge and node"
        + " fields does not cover a SPARSE field yet (only dense fields, and across levels on the"
        + " jvm backend)",
        e.getMessage());
  }
}
