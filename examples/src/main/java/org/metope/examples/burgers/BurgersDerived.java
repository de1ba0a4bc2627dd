package org.metope.examples.burgers;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Parthenon-VIBE's derived field (its {@code CalculateDerived}): {@code derived = 0.5 q_0 (u_x^2 +
 * u_y^2 + u_z^2)} on the interior cells, {@code q_0} the first scalar, a kinetic-energy-like
 * quantity.
 */
final class BurgersDerived {
  private BurgersDerived() {}

  static void fill(MeshData md) {
    final int u = md.state().fieldId("U");
    final int derived = md.state().fieldId("derived");
    final ArenaLayout layout = md.layout();
    final int inst = layout.dataInstance(u, md.container());
    final int cs = layout.componentStride(inst);
    final int js = layout.jStride(inst);
    final int ks = layout.kStride(inst);
    final double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      final IndexShape cells = md.block(b).cellBounds();
      final int is = start(cells, 0);
      final int ie = end(cells, 0);
      final int q = md.dataOffset(u, b);
      final int out = md.dataOffset(derived, b);
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          final int row = k * ks + j * js;
          row(a, out + row, q + row, cs, is, ie);
        }
      }
    }
  }

  private static void row(double[] a, int out, int q, int cs, int is, int ie) {
    for (int i = is; i <= ie; i++) {
      final double u1 = a[q + i];
      final double u2 = a[q + cs + i];
      final double u3 = a[q + 2 * cs + i];
      final double d = a[q + 3 * cs + i];
      a[out + i] = 0.5 * d * (u1 * u1 + u2 * u2 + u3 * u3);
    }
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
