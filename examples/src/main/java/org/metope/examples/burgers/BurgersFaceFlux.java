package org.metope.examples.burgers;

import org.metope.kernels.body.DevicePack;
import org.metope.mesh.view.DeviceKernel;

/**
 * Parthenon-VIBE's fluxes as the package's device kernel: one body, {@link #face}, that computes
 * the face states of the slope-limited linear or the WENO5-Z reconstruction and the HLL flux of
 * every component of {@code U} through one face, declared as a {@link DeviceKernel#faces} kernel
 * per direction ({@link #KERNELS}). A device-resident backend gets their launches ({@code
 * BurgersFluxes.FUNCTION}); the JVM runs the vector loops of {@link BurgersFluxes} ({@link
 * Reconstruction}, {@link HllRows}), which C2 compiles to SIMD code and which this per-face form
 * would slow down.
 *
 * <p><b>Same bits as the JVM path.</b> Every value here is the expression those loops compute,
 * operation for operation and in the same order (a loop's partial sums that start from {@code
 * -0.0} start from their first term here, which gives the same bits), and {@code
 * BurgersFaceFluxTest} checks the bits on signed zeros, subnormals, huge values and non-finite
 * ones (any two NaNs counting as equal). An OpenCL compiler may still contract {@code a * b + c}
 * into a fused multiply-add and change last bits on a device (docs/TORNADOVM.md, "What is
 * verified where"); its fast-math default must stay off, since the limiter's scaled product
 * overflows to infinity.
 */
final class BurgersFaceFlux {
  private static final double EPS = Reconstruction.EPS;
  private static final double THIRTEEN_THIRDS = Reconstruction.THIRTEEN_THIRDS;
  private static final double A00 = Reconstruction.A00;
  private static final double A01 = Reconstruction.A01;
  private static final double A02 = Reconstruction.A02;
  private static final double A10 = Reconstruction.A10;
  private static final double A11 = Reconstruction.A11;
  private static final double A12 = Reconstruction.A12;
  private static final double A20 = Reconstruction.A20;
  private static final double A21 = Reconstruction.A21;
  private static final double A22 = Reconstruction.A22;
  private static final double G0 = Reconstruction.G0;
  private static final double G1 = Reconstruction.G1;
  private static final double G2 = Reconstruction.G2;
  private static final double TWO_600 = Reconstruction.TWO_600;

  /** A block's reals: 1 for WENO5 (0 for linear), the pack index of the normal velocity. */
  private static final int WENO5 = 0;
  private static final int NORMAL = 1;

  /** Per direction 1..3 (index 0 unused): the interior faces' fluxes of {@code U}. */
  static final DeviceKernel[] KERNELS = new DeviceKernel[4];

  static {
    for (int dir = 1; dir <= 3; dir++) {
      final int normal = dir - 1;
      KERNELS[dir] = DeviceKernel.faces(BurgersFaceFlux::face, new String[] {"U"}, dir, 2,
          (md, b, n) -> n == NORMAL ? normal : BurgersPackage.isWeno5(
              md.block(0).mesh().packages().get(BurgersPackage.NAME)) ? 1 : 0);
    }
  }

  private BurgersFaceFlux() {}

  /**
   * The fluxes of every component of {@code U} through the lower face of cell {@code (k, j, i)}
   * along the kernel's direction: the body of {@link #KERNELS}. The face's left states are the
   * upper states of the cell below, its right states the lower states of the cell itself. One
   * loop takes the states in pairs, left then right: the normal velocity's ({@code m = 0, 1}),
   * then each component's. TornadoVM inlines every call into the kernel and refuses a method of
   * more than 600 graph nodes, so the reconstruction has one call site here.
   */
  static void face(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    final int ncomp = DevicePack.numVars(t, at);
    final int weno5 = (int) DevicePack.real(r, rat, WENO5);
    final int normal = (int) DevicePack.real(r, rat, NORMAL);
    double upl = 0.0;
    double upr = 0.0;
    double left = 0.0;
    for (int m = 0; m < 2 * ncomp + 2; m++) {
      final int v = m < 2 ? normal : m / 2 - 1;
      final int upper = 1 - m % 2;
      final double state = state(a, t, at, v, k, j, i, -upper, weno5, upper);
      if (upper == 1) {
        left = state;
      } else if (m == 1) {
        upl = left;
        upr = state;
      } else {
        final int n = m / 2 - 1;
        DevicePack.setFlux(a, t, at, n, k, j, i,
            hll(upl, upr, left, state, n < BurgersPackage.VELOCITY_COMPONENTS ? 1 : 0));
      }
    }
  }

  /**
   * The face state of component {@code v} of the cell {@code centre} indices along the direction
   * from {@code (k, j, i)}, on its upper face ({@code upper} 1) or its lower face (0), by WENO5
   * ({@code weno5} 1, from the cells two below to two above) or linear reconstruction (one below
   * to one above).
   */
  private static double state(double[] a, int[] t, int at, int v, int k, int j, int i,
      int centre, int weno5, int upper) {
    final double q1 = DevicePack.along(a, t, at, v, k, j, i, centre - 1);
    final double q2 = DevicePack.along(a, t, at, v, k, j, i, centre);
    final double q3 = DevicePack.along(a, t, at, v, k, j, i, centre + 1);
    if (weno5 == 1) {
      return weno5State(DevicePack.along(a, t, at, v, k, j, i, centre - 2), q1, q2, q3,
          DevicePack.along(a, t, at, v, k, j, i, centre + 2), upper);
    }
    final double dq = limitedSlope(q1, q2, q3);
    return upper == 1 ? q2 + dq : q2 - dq;
  }

  /**
   * Half the monotonised-central limited slope of cells {@code q1, q2, q3}, written without
   * selects as the JVM's vector loop writes it (see {@code ReconstructionStages}).
   */
  static double limitedSlope(double q1, double q2, double q3) {
    final double dm = q2 - q1;
    final double dp = q3 - q2;
    final double dq = Math.min(Math.max(dm * dp * TWO_600 * TWO_600, 0.0), 0.5) * (dm + dp);
    final double limit = 2.0 * Math.min(Math.abs(q3 - q2), Math.abs(q2 - q1));
    return 0.5 * Math.max(-limit, Math.min(limit, dq));
  }

  /** The WENO5-Z state of cell {@code q2} on its upper face ({@code upper} 1) or lower face (0). */
  private static double weno5State(double q0, double q1, double q2, double q3, double q4,
      int upper) {
    double x = q0 - 2.0 * q1 + q2;
    double y = q0 - 4.0 * q1 + 3.0 * q2;
    final double b0 = THIRTEEN_THIRDS * x * x + y * y + EPS;
    x = q1 - 2.0 * q2 + q3;
    y = q3 - q1;
    final double b1 = THIRTEEN_THIRDS * x * x + y * y + EPS;
    x = q2 - 2.0 * q3 + q4;
    y = q4 - 4.0 * q3 + 3.0 * q2;
    final double b2 = THIRTEEN_THIRDS * x * x + y * y + EPS;
    final double tau5 = Math.abs(b2 - b0);
    final double r0 = (b0 + tau5) / b0;
    final double r1 = (b1 + tau5) / b1;
    final double r2 = (b2 + tau5) / b2;
    final double alphaL = nonlinearity(r0, r1, r2);
    final double alphaR = nonlinearity(r2, r1, r0);
    final double dq = limitedSlope(q1, q2, q3);
    final double alphaLin = 2.0 * alphaL * alphaR / (alphaL + alphaR);
    // The lower state mirrors the stencils; one call site keeps the device kernel small.
    final double side = upper == 1 ? sideState(q0, q1, q2, q3, q4, r0, r1, r2)
        : sideState(q4, q3, q2, q1, q0, r2, r1, r0);
    return alphaLin * side + (1.0 - alphaLin) * (upper == 1 ? q2 + dq : q2 - dq);
  }

  /** One side's nonlinearity measure {@code alpha} from its relative smoothness {@code b0 .. b2}. */
  private static double nonlinearity(double b0, double b1, double b2) {
    final double w0 = G0 * b0 + EPS;
    final double w1 = G1 * b1 + EPS;
    final double w2 = G2 * b2 + EPS;
    final double wsum = 1.0 / (w0 + w1 + w2);
    double partial = G2 * w0 * w1;
    partial += G1 * w0 * w2;
    partial += G0 * w1 * w2;
    return 3.0 * wsum * w0 * w1 * w2 / partial + EPS;
  }

  /** One side's state before the blend: the weighted candidate stencils. */
  private static double sideState(double p0, double p1, double p2, double p3, double p4,
      double b0, double b1, double b2) {
    final double w0 = G0 * b0 + EPS;
    final double w1 = G1 * b1 + EPS;
    final double w2 = G2 * b2 + EPS;
    final double wsum = 1.0 / (w0 + w1 + w2);
    double state = w0 * (A00 * p0 + A01 * p1 + A02 * p2);
    state += w1 * (A10 * p1 + A11 * p2 + A12 * p3);
    state += w2 * (A20 * p2 + A21 * p3 + A22 * p4);
    return state * wsum;
  }

  /**
   * The HLL flux through a face whose normal velocity states are {@code upl}, {@code upr}, of a
   * component with states {@code ul}, {@code ur}: a velocity component's ({@code velocity} 1) or a
   * scalar's.
   */
  static double hll(double upl, double upr, double ul, double ur, int velocity) {
    final double lo = upr < upl ? upr : upl;
    final double hi = upl < upr ? upr : upl;
    final double l = 0.0 < lo ? 0.0 : lo;
    final double r = hi < 0.0 ? 0.0 : hi;
    final double den = r - l + (l * r == 0.0 ? 1.0 : 0.0);
    if (velocity == 1) {
      return 0.5 * (r * ul * upl - l * ur * upr + l * r * (ur - ul)) * (1.0 / den);
    }
    return (r * upl * ul - l * upr * ur + l * r * (ur - ul)) / den;
  }
}
