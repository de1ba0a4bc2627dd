package org.metope.solvers;

import java.util.Arrays;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.view.IndexBox;

/**
 * The vector operations of the solvers on fields of a partition, over a box (the interior, or all
 * cells) of every block (Parthenon's {@code solvers::utils} {@code CopyData}, {@code SetToZero}
 * and {@code AddFieldsAndStore}), public as Parthenon's are: a package uses them around its
 * solves. Each loop steps along a row of cells from the row's first index in the arena.
 */
public final class FieldOps {
  private FieldOps() {}

  /** {@code to = from}. */
  public static void copy(MeshData md, IndexBox box, int from, int to) {
    copy(md, box, from, to, null);
  }

  /** {@code to = from} on the blocks {@code only} marks (all for null). */
  static void copy(MeshData md, IndexBox box, int from, int to, boolean[] only) {
    double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      if (only != null && !only[b]) {
        continue;
      }
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int x = md.index(from, b, 0, k, j, box.i().s());
          int y = md.index(to, b, 0, k, j, box.i().s());
          System.arraycopy(a, x, a, y, box.i().e() - box.i().s() + 1);
        }
      }
    }
  }

  /** {@code field = 0}. */
  public static void zero(MeshData md, IndexBox box, int field) {
    zero(md, box, field, null);
  }

  /** {@code field = 0} on the blocks {@code only} marks (all for null). */
  static void zero(MeshData md, IndexBox box, int field, boolean[] only) {
    double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      if (only != null && !only[b]) {
        continue;
      }
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int x = md.index(field, b, 0, k, j, box.i().s());
          Arrays.fill(a, x, x + box.i().e() - box.i().s() + 1, 0.0);
        }
      }
    }
  }

  /** {@code c = wa x + wb y} (Parthenon's {@code AddFieldsAndStore}); {@code c} may be x or y. */
  public static void combine(MeshData md, IndexBox box, double wa, int x, double wb, int y, int c) {
    combine(md, box, wa, x, wb, y, c, null);
  }

  /** {@code c = wa x + wb y} on the blocks {@code only} marks (all for null). */
  static void combine(MeshData md, IndexBox box, double wa, int x, double wb, int y, int c,
      boolean[] only) {
    double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      if (only != null && !only[b]) {
        continue;
      }
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int xi = md.index(x, b, 0, k, j, box.i().s());
          int yi = md.index(y, b, 0, k, j, box.i().s());
          int ci = md.index(c, b, 0, k, j, box.i().s());
          for (int n = box.i().e() - box.i().s(); n >= 0; n--) {
            a[ci + n] = wa * a[xi + n] + wb * a[yi + n];
          }
        }
      }
    }
  }
}
