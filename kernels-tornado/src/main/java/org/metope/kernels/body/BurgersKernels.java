package org.metope.kernels.body;

/**
 * The bodies of Parthenon-VIBE's (the burgers example's) flux kernel, one face or one row at a
 * time over the flat data arena, for a device: the face states of the slope-limited linear and the
 * WENO5-Z reconstructions, the HLL flux, and a row of fluxes built from them. Static methods over
 * primitive arrays and numbers only, as TornadoVM needs; the device launchers ({@code
 * org.metope.kernels.tornado.ResidentTasks}) call them through the row helpers of {@link
 * StageLaunch}. (Burgers' derived field and time step are the example's own bodies, {@code
 * BurgersDerived} and {@code BurgersTimestep}, on the package kernel API: docs/TORNADOVM.md, "Your
 * kernel on a device".)
 *
 * <p><b>Same bits as the JVM path.</b> The JVM's fluxes stay the vector loops of the burgers
 * example ({@code Reconstruction}, {@code HllRows}), which C2 compiles to SIMD code and which this
 * per-face form would slow down; every value here is the expression those loops compute, operation
 * for operation and in the same order (a loop's partial sums that start from {@code -0.0} start
 * from their first term here, which gives the same bits), and {@code BurgersKernelsTest} checks
 * the bits on signed zeros, subnormals, huge values and non-finite ones (any two NaNs counting as
 * equal). An OpenCL compiler may still contract {@code a * b + c} into a fused multiply-add and
 * change last bits on the device (docs/TORNADOVM.md, "What is verified where"); its
 * fast-math default must stay off, since the limiter's scaled product overflows to infinity.
 */
public final class BurgersKernels {
  /** Parthenon's {@code robust::EPS()}: ten times the machine epsilon. */
  public static final double EPS = 10 * Math.ulp(1.0);
  public static final double THIRTEEN_THIRDS = 13.0 / 3.0;
  public static final double A00 = 1.0 / 3.0;
  public static final double A01 = -7.0 / 6.0;
  public static final double A02 = 11.0 / 6.0;
  public static final double A10 = -1.0 / 6.0;
  public static final double A11 = 5.0 / 6.0;
  public static final double A12 = 1.0 / 3.0;
  public static final double A20 = 1.0 / 3.0;
  public static final double A21 = 5.0 / 6.0;
  public static final double A22 = -1.0 / 6.0;
  public static final double G0 = 0.1;
  public static final double G1 = 0.6;
  public static final double G2 = 0.3;
  /** 2^600: two factors of it take the smallest positive product (2^-1074) above one half. */
  public static final double TWO_600 = 0x1p600;
  /** Components of {@code U} before the scalars: their fluxes are the velocity's. */
  public static final int VELOCITY_COMPONENTS = 3;

  private BurgersKernels() {}

  /**
   * Half the monotonised-central limited slope of cells {@code q1, q2, q3}, written without
   * selects as the JVM's vector loop writes it (see {@code ReconstructionStages}).
   */
  public static double limitedSlope(double q1, double q2, double q3) {
    final double dm = q2 - q1;
    final double dp = q3 - q2;
    final double dq = Math.min(Math.max(dm * dp * TWO_600 * TWO_600, 0.0), 0.5) * (dm + dp);
    final double limit = 2.0 * Math.min(Math.abs(q3 - q2), Math.abs(q2 - q1));
    return 0.5 * Math.max(-limit, Math.min(limit, dq));
  }

  /**
   * The linear face state of cell {@code c} (stride {@code s} along the direction): on its upper
   * face ({@code upper} 1, {@code q + dq}) or its lower face (0, {@code q - dq}).
   */
  public static double linearState(double[] a, int c, int s, int upper) {
    final double q2 = a[c];
    final double dq = limitedSlope(a[c - s], q2, a[c + s]);
    return upper == 1 ? q2 + dq : q2 - dq;
  }

  /**
   * The WENO5-Z face state of cell {@code c} on its upper face ({@code upper} 1) or its lower
   * face (0), from cells {@code c - 2s .. c + 2s}.
   */
  public static double weno5State(double[] a, int c, int s, int upper) {
    final double q0 = a[c - 2 * s];
    final double q1 = a[c - s];
    final double q2 = a[c];
    final double q3 = a[c + s];
    final double q4 = a[c + 2 * s];
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

  /** The face state of cell {@code c} by WENO5 ({@code weno5} 1) or linear reconstruction. */
  public static double state(double[] a, int c, int s, int weno5, int upper) {
    return weno5 == 1 ? weno5State(a, c, s, upper) : linearState(a, c, s, upper);
  }

  /**
   * The HLL flux through a face whose normal velocity states are {@code upl}, {@code upr}, of a
   * component with states {@code ul}, {@code ur}: a velocity component's ({@code velocity} 1) or a
   * scalar's.
   */
  public static double hll(double upl, double upr, double ul, double ur, int velocity) {
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

  /**
   * The fluxes of every component through faces {@code is..ie} of one row normal to the stride
   * {@code s}: the face at {@code i} lies between cells {@code i - s} and {@code i}, its left
   * states are the upper states of the cell below, its right states the lower states of the cell
   * above, and its flux goes to {@code a[flux + n * cs + i]}. {@code q} and {@code flux} point at
   * the row's cell and face 0 of component 0; {@code normal} is the offset of the normal velocity
   * component ({@code (dir - 1) cs}).
   *
   * <p>Per face, one loop takes the states in pairs, left then right: the normal velocity's
   * ({@code m = 0, 1}), then each component's. TornadoVM inlines every call into the kernel and
   * refuses a method of more than 600 graph nodes, so the reconstruction has one call site here.
   */
  public static void fluxRow(double[] a, int flux, int q, int ncomp, int cs, int s, int normal,
      int weno5, int is, int ie) {
    for (int i = is; i <= ie; i++) {
      double upl = 0.0;
      double upr = 0.0;
      double left = 0.0;
      for (int m = 0; m < 2 * ncomp + 2; m++) {
        final int component = m < 2 ? normal : (m / 2 - 1) * cs;
        final int upper = 1 - m % 2;
        final double state = state(a, q + component + i - s * upper, s, weno5, upper);
        if (upper == 1) {
          left = state;
        } else if (m == 1) {
          upl = left;
          upr = state;
        } else {
          final int n = m / 2 - 1;
          a[flux + n * cs + i] = hll(upl, upr, left, state, n < VELOCITY_COMPONENTS ? 1 : 0);
        }
      }
    }
  }
}
