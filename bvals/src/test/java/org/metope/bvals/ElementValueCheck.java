package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.FieldView;

/**
 * The loop of the ghost checks of face, edge and node fields: every block writes a known value
 * into each value it holds in its interior (shared faces, edges and corners included), ghosts
 * start as NaN, one exchange runs, then every value a rank holds, ghosts included, is checked,
 * and the values of one position held by several blocks of the rank are compared bit for bit.
 * Cell fields, {@code FINE} ones too, are checked the same way.
 */
final class ElementValueCheck {
  private ElementValueCheck() {}

  /**
   * Where one value lies: its block, its global index, its position in half cells of the finest
   * level, and the domain's length in those half cells (0 along inactive axes).
   */
  record Place(MeshData md, int b, TopologicalElement el, int n, long[] g, long[] half,
      long[] span) {}

  /** What a check expects of the values of one field. */
  interface Expectation {
    /** The value a block writes at an interior place. */
    double fill(String field, Place p);

    /** Whether {@code value}, found at {@code p} after the exchange, is right. */
    boolean isRight(String field, Place p, double value);
  }

  /** What a check found on one rank. */
  record Result(long checked, long wrong, long disagreeing, long shared) {}

  /** Asserts that {@code r} checked values, found no wrong one and no two blocks disagreeing. */
  static void assertAllRight(Result r) {
    assertTrue(r.checked() > 0, r.toString());
    assertEquals(0, r.wrong(), r.toString());
    assertEquals(0, r.disagreeing(), r.toString());
  }

  /** Fills {@code fields}, exchanges if asked, and counts. */
  static Result fillExchangeCheck(ExchangeFixture f, String[] fields, Expectation expect,
      boolean exchange) {
    for (MeshData md : f.mesh.meshData("base")) {
      for (String name : fields) {
        visit(md, name, (v, k, j, i, p, interior) -> v.set(p.el(), p.b(), p.n(), k, j, i,
            interior ? expect.fill(name, p) : Double.NaN));
      }
    }
    if (exchange) {
      f.exchange.execute();
    }
    long[] counts = new long[4];
    Map<String, Double> seen = new HashMap<>();
    for (MeshData md : f.mesh.meshData("base")) {
      for (String name : fields) {
        visit(md, name, (v, k, j, i, p, interior) -> {
          double value = v.get(p.el(), p.b(), p.n(), k, j, i);
          counts[0]++;
          if (!expect.isRight(name, p, value)) {
            counts[1]++;
          }
          String key = name + p.el() + p.n() + "@" + p.half()[0] + "," + p.half()[1] + ","
              + p.half()[2];
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

  /** Runs the check with the exchange on two in-process ranks, each on the fixture {@code make}. */
  static Result[] onTwoRanks(Function<Communicator, ExchangeFixture> make, String[] fields,
      Expectation expect) {
    Result[] results = new Result[2];
    InProcessRun.run(2, world -> {
      try (ExchangeFixture f = make.apply(world)) {
        results[world.rank()] = fillExchangeCheck(f, fields, expect, true);
      }
    });
    return results;
  }

  /** Visits one value of a field's element boxes. */
  interface Visitor {
    void at(FieldView v, int k, int j, int i, Place p, boolean interior);
  }

  /** The finest level of {@code mesh}'s blocks. */
  static int finestLevel(Mesh mesh) {
    return mesh.forest().sortedLeaves().stream().mapToInt(l -> l.level()).max().orElse(0);
  }

  /**
   * Visits every value of field {@code name}'s element boxes, ghosts included, with its global
   * index at its block's level and its position in half cells of the level below the finest (a
   * {@code FINE} field's cells are those of the next level), both wrapped into the periodic
   * domain.
   */
  static void visit(MeshData md, String name, Visitor visitor) {
    FieldView v = FieldView.of(md, name);
    Mesh mesh = md.block(0).mesh();
    boolean fine = md.state().field(name).metadata().isFine();
    int finest = finestLevel(mesh) + 1;
    long[] span = new long[3];
    for (int a = 0; a < 3; a++) {
      IndexShape shape = md.block(0).fineCellBounds();
      span[a] = shape.isActive(a)
          ? 2L * shape.interiorNcells(a) * mesh.config().rootGrid().extent(a, finest - 1) : 0;
    }
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      IndexShape shape = block.bounds(fine, false);
      int level = block.loc().level();
      int shift = finest - level - (fine ? 1 : 0);
      for (TopologicalElement el : md.state().field(name).metadata().elements()) {
        int[] top = {el.offsetI(), el.offsetJ(), el.offsetK()};
        int[] lo = new int[3];
        int[] hi = new int[3];
        for (int a = 0; a < 3; a++) {
          lo[a] = shape.start(a, IndexDomain.ENTIRE, el);
          hi[a] = shape.end(a, IndexDomain.ENTIRE, el);
        }
        int[] idx = new int[3];
        for (int n = 0; n < v.numComponents(); n++) {
          for (idx[2] = lo[2]; idx[2] <= hi[2]; idx[2]++) {
            for (idx[1] = lo[1]; idx[1] <= hi[1]; idx[1]++) {
              for (idx[0] = lo[0]; idx[0] <= hi[0]; idx[0]++) {
                long[] g = new long[3];
                long[] half = new long[3];
                boolean interior = true;
                for (int a = 0; a < 3; a++) {
                  if (shape.isActive(a)) {
                    int nx = shape.interiorNcells(a);
                    long local = idx[a] - shape.nghost();
                    long cells = nx * mesh.config().rootGrid().extent(a, level);
                    g[a] = Math.floorMod(block.loc().l(a) * nx + local, cells);
                    half[a] = (2 * g[a] + 1 - top[a]) << shift;
                    interior &= local >= 0 && local <= nx - 1 + top[a];
                  }
                }
                visitor.at(v, idx[2], idx[1], idx[0], new Place(md, b, el, n, g, half, span),
                    interior);
              }
            }
          }
        }
      }
    }
  }

  /**
   * A unit mesh of {@code cells} per active axis in blocks of {@code block} cells, refined
   * statically to level 1 around the centre, and to level 2 for {@code levels} 3; {@code bc[a]}
   * is the condition of both faces of axis {@code a} ({@code periodic} or {@code outflow}).
   */
  static String refinedDeck(int dims, int cells, int block, int levels, String... bc) {
    StringBuilder s = new StringBuilder("<parthenon/mesh>\nrefinement = static\npack_size = 4\n");
    for (int a = 1; a <= 3; a++) {
      boolean active = a <= dims;
      s.append("nx").append(a).append(" = ").append(active ? cells : 1).append("\nx").append(a)
          .append("min = 0\nx").append(a).append("max = 1\n");
      if (active) {
        s.append("ix").append(a).append("_bc = ").append(bc[a - 1]).append("\nox").append(a)
            .append("_bc = ").append(bc[a - 1]).append('\n');
      }
    }
    s.append("<parthenon/meshblock>\n");
    for (int a = 1; a <= 3; a++) {
      s.append("nx").append(a).append(" = ").append(a <= dims ? block : 1).append('\n');
    }
    for (int level = 1; level < levels; level++) {
      s.append("<parthenon/static_refinement").append(level - 1).append(">\nlevel = ")
          .append(level).append('\n');
      double half = level == 1 ? 0.1 : 0.05;
      for (int a = 1; a <= dims; a++) {
        s.append("x").append(a).append("min = ").append(0.5 - half).append("\nx").append(a)
            .append("max = ").append(0.5 + half).append('\n');
      }
    }
    return s.toString();
  }
}
