package org.metope.examples.burgers;

import java.util.List;
import org.metope.kernels.body.BurgersKernels;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MeshDataCallback;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Parthenon-VIBE's derived field (its {@code CalculateDerived}): {@code derived = 0.5 q_0 (u_x^2 +
 * u_y^2 + u_z^2)} on the interior cells, {@code q_0} the first scalar, a kinetic-energy-like
 * quantity. One body ({@link BurgersKernels#derivedRow}) for the host loops of {@link #fill} and
 * for the device launch of {@link #FILL}.
 */
final class BurgersDerived {
  /** The package's fill-derived callback: {@link #fill} on the host, a launch on a device. */
  static final MeshDataCallback FILL = new MeshDataCallback() {
    @Override
    public void apply(MeshData md) {
      fill(md);
    }

    @Override
    public List<StageLaunch> launches(MeshData md) {
      return List.of(launch(md));
    }
  };

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
          BurgersKernels.derivedRow(a, out + row, q + row, cs, is, ie);
        }
      }
    }
  }

  /** {@link #fill} as one BURGERS_DERIVED entry per block. */
  private static StageLaunch launch(MeshData md) {
    final int nb = md.numBlocks();
    final StageLaunch.Kind kind = StageLaunch.Kind.BURGERS_DERIVED;
    final int[] t = new int[nb * kind.width];
    if (nb > 0) {
      final int u = md.state().fieldId("U");
      final int derived = md.state().fieldId("derived");
      final ArenaLayout layout = md.layout();
      final int inst = layout.dataInstance(u, md.container());
      final IndexShape cells = md.block(0).cellBounds();
      for (int b = 0; b < nb; b++) {
        final int at = b * kind.width;
        t[at + StageLaunch.OUT] = md.dataOffset(derived, b);
        t[at + StageLaunch.Q] = md.dataOffset(u, b);
        t[at + StageLaunch.E_CS] = layout.componentStride(inst);
        BurgersTimestep.interiorRows(cells, layout.jStride(inst), layout.kStride(inst), t,
            at + StageLaunch.E_IS);
      }
    }
    return new StageLaunch(kind, t, new double[0], nb);
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
