package org.metope.examples.burgers;

import org.metope.kernels.body.BurgersKernels;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.TimestepEstimator;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Parthenon-VIBE's time step limit (its {@code EstimateTimestepMesh}): {@code cfl} times the
 * smallest, over the interior cells of a partition, of {@code 1 / (|u_x| / dx1 + |u_y| / dx2 +
 * |u_z| / dx3)}, the terms of inactive directions left out. Each block's smallest step is
 * {@link BurgersKernels#smallestStep}, run by {@link #estimate} on the host and by the launch of
 * {@link #ESTIMATOR} on a device (which sends back one value per block); the minimum over blocks
 * is the same value either way (no step is NaN or a signed zero: {@code 1 / rate} with {@code rate
 * >= 0} is positive, and a NaN step is never the smaller).
 */
final class BurgersTimestep {
  /** The package's estimator: {@link #estimate} on the host, a launch on a device. */
  static final TimestepEstimator ESTIMATOR = new TimestepEstimator() {
    @Override
    public double estimate(MeshData md) {
      return BurgersTimestep.estimate(md);
    }

    @Override
    public StageLaunch smallestStepLaunch(MeshData md) {
      return launch(md);
    }

    @Override
    public double fromSmallest(MeshData md, double smallest) {
      return cfl(md) * smallest;
    }
  };

  private BurgersTimestep() {}

  static double estimate(MeshData md) {
    StageLaunch launch = launch(md);
    launch.runOnHost(md.data(), 0.0, 0.0);
    double minDt = Double.MAX_VALUE;
    for (int b = 0; b < md.numBlocks(); b++) {
      minDt = launch.results[b] < minDt ? launch.results[b] : minDt;
    }
    return cfl(md) * minDt;
  }

  private static double cfl(MeshData md) {
    return md.block(0).mesh().packages().get(BurgersPackage.NAME).params().getDouble("cfl");
  }

  /** One SMALLEST_STEP entry per block of {@code md}. */
  private static StageLaunch launch(MeshData md) {
    final int nb = md.numBlocks();
    final StageLaunch.Kind kind = StageLaunch.Kind.SMALLEST_STEP;
    final int[] t = new int[nb * kind.width];
    final double[] r = new double[nb * kind.realWidth];
    if (nb > 0) {
      final int u = md.state().fieldId("U");
      final ArenaLayout layout = md.layout();
      final int inst = layout.dataInstance(u, md.container());
      final IndexShape cells = md.block(0).cellBounds();
      for (int b = 0; b < nb; b++) {
        final int at = b * kind.width;
        t[at + StageLaunch.S_Q] = md.dataOffset(u, b);
        t[at + StageLaunch.S_CS] = layout.componentStride(inst);
        t[at + StageLaunch.S_NDIM] = layout.fluxDirections();
        interiorRows(cells, layout.jStride(inst), layout.kStride(inst), t, at + StageLaunch.S_IS);
        final UniformCartesian coords = md.block(b).coords();
        for (int d = 0; d < 3; d++) {
          r[b * kind.realWidth + d] = coords.dx(d);
        }
      }
    }
    return new StageLaunch(kind, t, r, nb);
  }

  /**
   * Writes the interior cells' {@code IS IE JB JE KB KE} and the strides {@code JSTRIDE KSTRIDE}
   * at {@code t[at..at + 7]}, the tail of an entry of a burgers launch.
   */
  static void interiorRows(IndexShape cells, int js, int ks, int[] t, int at) {
    for (int axis = 0; axis < 3; axis++) {
      t[at + 2 * axis] = start(cells, axis);
      t[at + 2 * axis + 1] = end(cells, axis);
    }
    t[at + 6] = js;
    t[at + 7] = ks;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
