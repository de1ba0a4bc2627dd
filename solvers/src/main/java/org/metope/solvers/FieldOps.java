package org.metope.solvers;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.view.IndexBox;

/**
 * The vector operations of the solvers on fields of a partition, over a box (the interior, or all
 * cells) of every block (Parthenon's {@code solvers::utils} {@code CopyData}, {@code SetToZero}
 * and {@code AddFieldsAndStore}), public as Parthenon's are: a package uses them around its
 * solves.
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
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            a[md.index(to, b, 0, k, j, i)] = a[md.index(from, b, 0, k, j, i)];
          }
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
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            a[md.index(field, b, 0, k, j, i)] = 0.0;
          }
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
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            a[md.index(c, b, 0, k, j, i)] = wa * a[md.index(x, b, 0, k, j, i)]
                + wb * a[md.index(y, b, 0, k, j, i)];
          }
        }
      }
    }
  }
}
