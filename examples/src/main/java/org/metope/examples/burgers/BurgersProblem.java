package org.metope.examples.burgers;

import java.util.function.DoubleUnaryOperator;
import org.metope.examples.libm.GlibcExp;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Parthenon-VIBE's initial state (its {@code ProblemGenerator}), at the cell centres {@code (x,
 * y, z)} of the interior:
 *
 * <pre>
 * u_x = (tanh(-20 x) cos(pi x) + 1)   exp(-30 y^2) exp(-30 z^2)
 * u_y = (sin(pi y) + 0.2)             exp(-30 x^2) exp(-30 z^2)
 * u_z = (tanh(-20 z) cos(pi z) + 0.5) exp(-30 x^2) exp(-30 y^2)
 * q_n = 1, plus 10 where |x| &lt; 0.025, |y| &lt; 0.15 and |z| &lt; 0.025
 * </pre>
 *
 * Each factor depends on one coordinate, so it is evaluated once per index of the block and the
 * products are formed per cell in Parthenon's order. The examples' policy for the functions of an
 * initial state is glibc's bits, which Parthenon gets, computed the same on every machine: glibc's
 * own algorithm where Metope has it ({@code tanh}: {@link StrictMath}'s, fdlibm's algorithm, which
 * glibc's also is; {@code exp}: {@link GlibcExp}, which {@code poisson_gmg} takes too), else
 * correctly rounded ({@code cos} and {@code sin}: {@link CorrectlyRounded}'s, where glibc's round
 * correctly but for arguments within a few thousandths of an ulp of a midpoint; fdlibm's are only
 * within an ulp). On the reference decks' cells (glibc 2.36) glibc misrounds two arguments: {@code
 * exp(-30 x^2)} at {@code x = +-0.0390625}, which {@link GlibcExp} reproduces, and {@code sin(pi
 * x)} at {@code x = +-0.052734375}, which {@link CorrectlyRounded} does not (see {@code
 * BurgersParthenonComparisonTest}).
 */
final class BurgersProblem {
  private BurgersProblem() {}

  /** The functions of the initial state. */
  record Functions(DoubleUnaryOperator tanh, DoubleUnaryOperator cos, DoubleUnaryOperator sin,
      DoubleUnaryOperator exp) {}

  /** fdlibm's {@code tanh} and glibc's {@code exp}, correctly rounded {@code cos} and {@code sin}. */
  static final Functions FUNCTIONS = new Functions(StrictMath::tanh, CorrectlyRounded::cos,
      CorrectlyRounded::sin, GlibcExp::exp);

  /** Sets block {@code b} of {@code md} (a partition of {@code base}). */
  static void generate(MeshData md, int b) {
    generate(md, b, FUNCTIONS);
  }

  /** Sets block {@code b} of {@code md} with the functions {@code f}. */
  static void generate(MeshData md, int b, Functions f) {
    final UniformCartesian coords = md.block(b).coords();
    final IndexShape cells = md.block(b).cellBounds();
    final int u = md.state().fieldId("U");
    final ArenaLayout layout = md.layout();
    final int inst = layout.dataInstance(u, md.container());
    final int ncomp = layout.numComponents(inst);
    final int cs = layout.componentStride(inst);
    final Factors fx = new Factors(coords, cells, 0, f);
    final Factors fy = new Factors(coords, cells, 1, f);
    final Factors fz = new Factors(coords, cells, 2, f);
    final double[] a = md.data();
    final int q = md.dataOffset(u, b);
    for (int k = fz.start; k <= fz.end; k++) {
      for (int j = fy.start; j <= fy.end; j++) {
        for (int i = fx.start; i <= fx.end; i++) {
          final int c = q + (k * layout.nj(inst) + j) * layout.ni(inst) + i;
          a[c] = (fx.tanhCos(i) + 1.0) * fy.gauss(j) * fz.gauss(k);
          a[c + cs] = (fy.sin(j) + 0.2) * fx.gauss(i) * fz.gauss(k);
          a[c + 2 * cs] = (fz.tanhCos(k) + 0.5) * fx.gauss(i) * fy.gauss(j);
          final boolean bump = Math.abs(fx.x(i)) < 0.025 && Math.abs(fy.x(j)) < 0.15
              && Math.abs(fz.x(k)) < 0.025;
          for (int n = BurgersPackage.VELOCITY_COMPONENTS; n < ncomp; n++) {
            a[c + n * cs] = bump ? 1.0 + 10.0 : 1.0;
          }
        }
      }
    }
  }

  /** The one-coordinate factors along one axis, at every interior index of a block. */
  private static final class Factors {
    final int start;
    final int end;
    private final double[] x;
    private final double[] tanhCos;
    private final double[] sin;
    private final double[] gauss;

    Factors(UniformCartesian coords, IndexShape cells, int axis, Functions f) {
      start = cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      end = cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      x = new double[end + 1];
      tanhCos = new double[end + 1];
      sin = new double[end + 1];
      gauss = new double[end + 1];
      for (int n = start; n <= end; n++) {
        final double c = coords.xc(axis, n);
        x[n] = c;
        tanhCos[n] = f.tanh().applyAsDouble(-20.0 * c) * f.cos().applyAsDouble(Math.PI * c);
        sin[n] = f.sin().applyAsDouble(Math.PI * c);
        gauss[n] = f.exp().applyAsDouble(-30.0 * c * c);
      }
    }

    double x(int n) {
      return x[n];
    }

    double tanhCos(int n) {
      return tanhCos[n];
    }

    double sin(int n) {
      return sin[n];
    }

    double gauss(int n) {
      return gauss[n];
    }
  }
}
