package org.metope.examples.burgers;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Parthenon-VIBE's time step limit (its {@code EstimateTimestepMesh}): {@code cfl} times the
 * smallest, over the interior cells of a partition, of {@code 1 / (|u_x| / dx1 + |u_y| / dx2 +
 * |u_z| / dx3)}, the terms of inactive directions left out.
 */
final class BurgersTimestep {
  private BurgersTimestep() {}

  static double estimate(MeshData md) {
    final double cfl = md.block(0).mesh().packages().get(BurgersPackage.NAME).params()
        .getDouble("cfl");
    final int u = md.state().fieldId("U");
    final ArenaLayout layout = md.layout();
    final int inst = layout.dataInstance(u, md.container());
    final int cs = layout.componentStride(inst);
    final int js = layout.jStride(inst);
    final int ks = layout.kStride(inst);
    final int ndim = layout.fluxDirections();
    final IndexShape cells = md.block(0).cellBounds();
    final int is = start(cells, 0);
    final int ie = end(cells, 0);
    final double[] a = md.data();
    double minDt = Double.MAX_VALUE;
    for (int b = 0; b < md.numBlocks(); b++) {
      final UniformCartesian coords = md.block(b).coords();
      final double dx1 = coords.dx(0);
      final double dx2 = coords.dx(1);
      final double dx3 = coords.dx(2);
      final int q = md.dataOffset(u, b);
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          final int row = q + k * ks + j * js;
          for (int i = is; i <= ie; i++) {
            double rate = Math.abs(a[row + i]) / dx1;
            if (ndim > 1) {
              rate += Math.abs(a[row + cs + i]) / dx2;
            }
            if (ndim > 2) {
              rate += Math.abs(a[row + 2 * cs + i]) / dx3;
            }
            final double dt = 1.0 / rate;
            minDt = dt < minDt ? dt : minDt;
          }
        }
      }
    }
    return cfl * minDt;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
