package org.metope.examples.burgers;

import java.util.List;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MeshDataCallback;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.DeviceKernel;

/**
 * Parthenon-VIBE's derived field (its {@code CalculateDerived}): {@code derived = 0.5 q_0 (u_x^2 +
 * u_y^2 + u_z^2)} on the interior cells, {@code q_0} the first scalar, a kinetic-energy-like
 * quantity. Written once, as the body {@link #derived} of {@link #KERNEL}, which the host runs and
 * a device-resident backend gets as a launch ({@link #FILL}).
 */
final class BurgersDerived {
  /** Pack components: {@code derived}, then {@code U}'s velocity and first scalar. */
  private static final int DERIVED = 0;
  private static final int UX = 1;
  private static final int UY = 2;
  private static final int UZ = 3;
  private static final int Q0 = 4;

  /** The kernel: {@link #derived} on every interior cell, over {@code derived} and {@code U}. */
  static final DeviceKernel KERNEL = DeviceKernel.cells(BurgersDerived::derived,
      new String[] {"derived", "U"}, TopologicalElement.CC, IndexDomain.INTERIOR, 0, null);

  /** The package's fill-derived callback: {@link #KERNEL} on the host, its launch on a device. */
  static final MeshDataCallback FILL = new MeshDataCallback() {
    @Override
    public void apply(MeshData md) {
      KERNEL.run(md);
    }

    @Override
    public List<StageLaunch> launches(MeshData md) {
      return List.of(KERNEL.launch(md));
    }
  };

  private BurgersDerived() {}

  /** The derived field at cell {@code (k, j, i)}: the body of {@link #KERNEL}. */
  static void derived(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    final double u1 = DevicePack.get(a, t, at, UX, k, j, i);
    final double u2 = DevicePack.get(a, t, at, UY, k, j, i);
    final double u3 = DevicePack.get(a, t, at, UZ, k, j, i);
    final double d = DevicePack.get(a, t, at, Q0, k, j, i);
    DevicePack.set(a, t, at, DERIVED, k, j, i, 0.5 * d * (u1 * u1 + u2 * u2 + u3 * u3));
  }
}
