package org.metope.examples.burgers;

import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.TimestepEstimator;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.DeviceKernel;

/**
 * Parthenon-VIBE's time step limit (its {@code EstimateTimestepMesh}): {@code cfl} times the
 * smallest, over the interior cells of a partition, of {@code 1 / (|u_x| / dx1 + |u_y| / dx2 +
 * |u_z| / dx3)}, the terms of inactive directions left out. Written once, as the body {@link
 * #step} of {@link #KERNEL}, each block's smallest step folded in cell order: on the host by
 * {@link #estimate}, on a device by its launch (which sends back one value per block); the
 * minimum over blocks is the same value either way (no step is NaN or a signed zero: {@code 1 /
 * rate} with {@code rate >= 0} is positive, and a NaN step is never the smaller).
 */
final class BurgersTimestep {
  /** A block's reals: its cell widths, then the number of active directions. */
  private static final int DX1 = 0;
  private static final int DX2 = 1;
  private static final int DX3 = 2;
  private static final int NDIM = 3;

  /** The kernel: each block's smallest {@link #step} over its interior cells. */
  static final DeviceKernel KERNEL = DeviceKernel.minimum(BurgersTimestep::step,
      new String[] {"U"}, TopologicalElement.CC, IndexDomain.INTERIOR, 4,
      (md, b, n) -> n == NDIM ? md.layout().fluxDirections() : md.block(b).coords().dx(n));

  /** The package's estimator: {@link #estimate} on the host, {@link #KERNEL}'s launch on a device. */
  static final TimestepEstimator ESTIMATOR = new TimestepEstimator() {
    @Override
    public double estimate(MeshData md) {
      return BurgersTimestep.estimate(md);
    }

    @Override
    public StageLaunch smallestStepLaunch(MeshData md) {
      return KERNEL.launch(md);
    }

    @Override
    public double fromSmallest(MeshData md, double smallest) {
      return cfl(md) * smallest;
    }
  };

  private BurgersTimestep() {}

  static double estimate(MeshData md) {
    return cfl(md) * KERNEL.reduce(md);
  }

  /** The largest stable step of cell {@code (k, j, i)} before {@code cfl}: the body of the kernel. */
  static double step(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    double rate = Math.abs(DevicePack.get(a, t, at, 0, k, j, i)) / DevicePack.real(r, rat, DX1);
    if (DevicePack.real(r, rat, NDIM) > 1) {
      rate += Math.abs(DevicePack.get(a, t, at, 1, k, j, i)) / DevicePack.real(r, rat, DX2);
    }
    if (DevicePack.real(r, rat, NDIM) > 2) {
      rate += Math.abs(DevicePack.get(a, t, at, 2, k, j, i)) / DevicePack.real(r, rat, DX3);
    }
    return 1.0 / rate;
  }

  private static double cfl(MeshData md) {
    return md.block(0).mesh().packages().get(BurgersPackage.NAME).params().getDouble("cfl");
  }
}
