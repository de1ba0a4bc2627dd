package org.metope.examples.burgers;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Parthenon-VIBE's history output {@code MS Mass N} on one block (its {@code MassHistory}): over
 * every component of {@code U} and every interior cell whose centre lies in the octant (bounds
 * inclusive), the sum of {@code U^2 V / (V_mesh + 1e-20)}, accumulated component by component,
 * cell by cell with {@code i} fastest, continuing the total of the blocks before it.
 *
 * <p>That is the order of Parthenon's reduction: a Kokkos {@code MDRangePolicy} over (block,
 * component, k, j, i) with tiles {@code 1 x 1 x 1 x 1 x ni}, which Kokkos' Serial back end runs
 * as plain nested loops adding every term to one total, over the whole pack of a rank's blocks
 * (one pack per rank by default) in gid order. Carried from block to block in global order
 * ({@link org.metope.mesh.field.HistoryOutput#runningSum}), the total is the one of Parthenon's
 * single-rank run on any number of ranks.
 */
final class BurgersHistory {
  private BurgersHistory() {}

  /**
   * {@code total} plus the octant {@code box = {x1min, x1max, x2min, x2max, x3min, x3max}}'s
   * terms on block b.
   */
  static double mass(MeshData md, int b, double[] box, double total) {
    final double meshVolume = md.block(b).mesh().packages().get(BurgersPackage.NAME).params()
        .getDouble("mesh_volume");
    final int u = md.state().fieldId("U");
    final ArenaLayout layout = md.layout();
    final int inst = layout.dataInstance(u, md.container());
    final int ncomp = layout.numComponents(inst);
    final int cs = layout.componentStride(inst);
    final int js = layout.jStride(inst);
    final int ks = layout.kStride(inst);
    final UniformCartesian coords = md.block(b).coords();
    final IndexShape cells = md.block(b).cellBounds();
    final double weight = coords.cellVolume() / (meshVolume + 1e-20);
    final int q = md.dataOffset(u, b);
    final double[] a = md.data();
    double sum = total;
    for (int n = 0; n < ncomp; n++) {
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        final double x3 = coords.xc(2, k);
        final boolean in3 = box[4] <= x3 && x3 <= box[5];
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          final double x2 = coords.xc(1, j);
          final boolean in23 = in3 && box[2] <= x2 && x2 <= box[3];
          final int row = q + n * cs + k * ks + j * js;
          for (int i = start(cells, 0); i <= end(cells, 0); i++) {
            final double x1 = coords.xc(0, i);
            final double mask = in23 && box[0] <= x1 && x1 <= box[1] ? 1.0 : 0.0;
            final double value = a[row + i];
            sum += mask * value * value * weight;
          }
        }
      }
    }
    return sum;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
