package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.FieldView;

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

  /** What a check found on one rank. */
  private record Result(long checked, long wrong, long disagreeing, long shared) {}

  private static Result fillExchangeCheck(ExchangeFixture f, boolean exchange) {
    Mesh mesh = f.mesh;
    for (MeshData md : mesh.meshData("base")) {
      for (String name : FIELDS) {
        visit(md, name, (v, el, b, n, k, j, i, g, interior, owner) -> v.set(el, b, n, k, j, i,
            interior ? function(g, el, n) + 1e-3 * md.block(b).gid() : Double.NaN));
      }
    }
    if (exchange) {
      f.exchange.execute();
    }
    long[] counts = new long[4];
    Map<String, Double> seen = new HashMap<>();
    for (MeshData md : mesh.meshData("base")) {
      for (String name : FIELDS) {
        visit(md, name, (v, el, b, n, k, j, i, g, interior, owner) -> {
          double value = v.get(el, b, n, k, j, i);
          counts[0]++;
          if (Double.doubleToLongBits(value)
              != Double.doubleToLongBits(function(g, el, n) + 1e-3 * owner)) {
            counts[1]++;
          }
          String key = name + el + n + "@" + g[0] + "," + g[1] + "," + g[2];
          Double before = seen.putIfAbsent(key, value);
          if (before != null) {
            counts[3]++;
            if (Double.doubleToLongBits(before) != Double.doubleToLongBits(value)) {
              counts[2]++;
            }
          }
        });
      }
    }
    return new Result(counts[0], counts[1], counts[2], counts[3]);
  }

  /** Visits every value of one field's element boxes, ghosts included. */
  private interface Visitor {
    void at(FieldView v, TopologicalElement el, int b, int n, int k, int j, int i, long[] g,
        boolean interior, long owner);
  }

  private static void visit(MeshData md, String name, Visitor visitor) {
    FieldView v = FieldView.of(md, name);
    Mesh mesh = md.block(0).mesh();
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      IndexShape shape = block.cellBounds();
      for (TopologicalElement el : md.state().field(name).metadata().elements()) {
        int[] top = {el.offsetI(), el.offsetJ(), el.offsetK()};
        int[] lo = new int[3];
        int[] hi = new int[3];
        for (int a = 0; a < 3; a++) {
          lo[a] = shape.start(a, IndexDomain.ENTIRE, el);
          hi[a] = shape.end(a, IndexDomain.ENTIRE, el);
        }
        long[] g = new long[3];
        int[] idx = new int[3];
        for (int n = 0; n < v.numComponents(); n++) {
          for (idx[2] = lo[2]; idx[2] <= hi[2]; idx[2]++) {
            for (idx[1] = lo[1]; idx[1] <= hi[1]; idx[1]++) {
              for (idx[0] = lo[0]; idx[0] <= hi[0]; idx[0]++) {
                boolean interior = true;
                for (int a = 0; a < 3; a++) {
                  if (!shape.isActive(a)) {
                    g[a] = 0;
                    continue;
                  }
                  int nx = shape.interiorNcells(a);
                  long cells = nx * mesh.config().rootGrid().extent(a, block.loc().level());
                  long local = idx[a] - shape.nghost();
                  g[a] = Math.floorMod(block.loc().l(a) * nx + local, cells);
                  interior &= local >= 0 && local <= nx - 1 + top[a];
                }
                visitor.at(v, el, b, n, idx[2], idx[1], idx[0], g, interior,
                    owner(mesh, g, top, shape));
              }
            }
          }
        }
      }
    }
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
      assertEquals(0, after.wrong(), after.toString());
      assertEquals(0, after.disagreeing(), after.toString());
      assertTrue(after.shared() > 0, after.toString());
    }
  }

  @ParameterizedTest(name = "deck {0}")
  @ValueSource(ints = {0, 1})
  void givenTwoRanks_thenEveryGhostAndSharedValueIsTheOwners(int deck) {
    Result[] results = new Result[2];
    InProcessRun.run(2, world -> {
      try (ExchangeFixture f = new ExchangeFixture(DECKS.get(deck), world, elements())) {
        results[world.rank()] = fillExchangeCheck(f, true);
      }
    });
    for (Result r : results) {
      assertTrue(r.checked() > 0, r.toString());
      assertEquals(0, r.wrong(), r.toString());
      assertEquals(0, r.disagreeing(), r.toString());
    }
  }

  /** The device launches unload row by row (RowKernels): the same masks, the same values. */
  @Test
  void givenTheEmulatedDevice_thenEveryGhostAndSharedValueIsTheOwners() {
    Result[] results = new Result[2];
    InProcessRun.run(2, world -> {
      try (ExchangeFixture f = new ExchangeFixture(DECKS.get(1), world, elements(), false,
          new EmulatedDeviceBackend())) {
        results[world.rank()] = fillExchangeCheck(f, true);
      }
    });
    for (Result r : results) {
      assertTrue(r.checked() > 0, r.toString());
      assertEquals(0, r.wrong(), r.toString());
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
        + " fields does not cover a SPARSE field yet (only dense fields on single-level meshes)",
        e.getMessage());
  }
}
