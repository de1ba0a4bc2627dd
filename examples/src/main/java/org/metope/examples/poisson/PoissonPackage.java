package org.metope.examples.poisson;

import org.metope.comm.ReduceOp;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParReduce;

/**
 * The package of Parthenon's {@code poisson} example: {@code lap(potential) = density} solved by
 * Jacobi sweeps of the five-point (seven-point in 3D) stencil, the ghosts on the domain boundary
 * held at their initial zeros (Parthenon's {@code poisson_package}).
 *
 * <p>{@code <poisson>} keys (defaults, as Parthenon's): {@code max_iterations} (10000), {@code
 * check_interval} (100; read but unused, as in Parthenon, whose solver checks every iteration),
 * {@code error_tolerance} (1e-8, on the largest {@code min(|dphi / phi|, |dphi|)}), {@code
 * fail_without_convergence} (false: reaching the limit fails the run), {@code
 * warn_without_convergence} (true: it prints a warning), {@code use_jacobi} (true: weights {@code
 * 1, -2 ndim, 1, ...}; false: {@code 1 / (2 ndim), -1, ...}), {@code use_stencil} (true; the
 * sparse-matrix form is not supported), and the sphere of the problem generator: {@code x0},
 * {@code y0}, {@code z0} (0) and {@code radius} (0.1).
 *
 * <p>Fields: {@code density} (derived, one copy) and {@code potential} (independent, ghosts
 * filled); the driver's {@code delta} container holds each sweep's change of the potential.
 */
public final class PoissonPackage {
  /** The package label. */
  public static final String NAME = "poisson_package";
  /** The deck block. */
  public static final String BLOCK = "poisson";

  private PoissonPackage() {}

  /** Reads {@code <poisson>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    int maxIterations = pin.getOrAddInteger(BLOCK, "max_iterations", 10000);
    if (maxIterations < 1) {
      throw pin.error(BLOCK, "max_iterations", "a positive number of iterations");
    }
    pkg.addParam("max_iterations", maxIterations);
    pkg.addParam("check_interval", pin.getOrAddInteger(BLOCK, "check_interval", 100));
    pkg.addParam("error_tolerance", pin.getOrAddReal(BLOCK, "error_tolerance", 1.e-8));
    pkg.addParam("fail_without_convergence",
        pin.getOrAddBoolean(BLOCK, "fail_without_convergence", false));
    pkg.addParam("warn_without_convergence",
        pin.getOrAddBoolean(BLOCK, "warn_without_convergence", true));
    // Parthenon's problem generator reads the sphere from the deck: not written to outputs.
    pkg.addUnwrittenParam("x0", pin.getOrAddReal(BLOCK, "x0", 0.0));
    pkg.addUnwrittenParam("y0", pin.getOrAddReal(BLOCK, "y0", 0.0));
    pkg.addUnwrittenParam("z0", pin.getOrAddReal(BLOCK, "z0", 0.0));
    pkg.addUnwrittenParam("radius", pin.getOrAddReal(BLOCK, "radius", 0.1));
    boolean useJacobi = pin.getOrAddBoolean(BLOCK, "use_jacobi", true);
    pkg.addParam("use_jacobi", useJacobi);
    if (!pin.getOrAddBoolean(BLOCK, "use_stencil", true)) {
      throw pin.error(BLOCK, "use_stencil", "true (the sparse-matrix form is not supported)");
    }
    pkg.addParam("use_stencil", true);
    int ndim = 1 + (pin.getInteger("parthenon/mesh", "nx2") > 1 ? 1 : 0)
        + (pin.getInteger("parthenon/mesh", "nx3") > 1 ? 1 : 0);
    pkg.addParam("stencil", PoissonStencil.of(ndim, useJacobi));
    pkg.addField("density", Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField("potential", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST));
    return pkg;
  }

  /** The package's parameters, seen from a partition. */
  static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(NAME).params();
  }

  /**
   * The initial state of block {@code b} (Parthenon's {@code ProblemGenerator}), ghosts included:
   * a uniform sphere of unit mass at {@code (x0, y0, z0)}, zero potential.
   */
  static void generate(MeshData md, int b) {
    Params p = params(md);
    double x0 = p.getDouble("x0");
    double y0 = p.getDouble("y0");
    double z0 = p.getDouble("z0");
    double radius = p.getDouble("radius");
    double inside = 1.0 / (4.0 / 3.0 * Math.PI * Math.pow(radius, 3));
    int rho = md.state().fieldId("density");
    int phi = md.state().fieldId("potential");
    UniformCartesian x = md.block(b).coords();
    IndexBox all = IndexBox.of(md.block(b).cellBounds(), IndexDomain.ENTIRE);
    double[] a = md.data();
    for (int k = all.k().s(); k <= all.k().e(); k++) {
      for (int j = all.j().s(); j <= all.j().e(); j++) {
        for (int i = all.i().s(); i <= all.i().e(); i++) {
          double dx = x.x1c(i) - x0;
          double dy = x.x2c(j) - y0;
          double dz = x.x3c(k) - z0;
          double dist2 = dx * dx + dy * dy + dz * dz;
          a[md.index(rho, b, 0, k, j, i)] = dist2 < radius * radius ? inside : 0.0;
          a[md.index(phi, b, 0, k, j, i)] = 0.0;
        }
      }
    }
  }

  /** The cell width, checked equal along every active axis (Parthenon requires it too). */
  private static double cellWidth(MeshData md) {
    UniformCartesian x = md.block(0).coords();
    int ndim = md.block(0).mesh().ndim();
    for (int axis = 1; axis < ndim; axis++) {
      if (x.dx(axis) != x.dx(0)) {
        throw new IllegalStateException("the poisson package needs equal cell widths: dx1="
            + x.dx(0) + " dx" + (axis + 1) + "=" + x.dx(axis));
      }
    }
    return x.dx(0);
  }

  /** The interior box of the partition's blocks. */
  private static IndexBox interior(MeshData md) {
    return IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
  }

  /**
   * One Jacobi sweep (Parthenon's {@code UpdatePhi}): every cell's change {@code phi_new - phi}
   * into {@code delta}'s potential, from the old values only, then {@code phi += dphi}.
   */
  static void updatePhi(MeshData md, MeshData delta, PoissonStencil stencil, int[] shift) {
    int rho = md.state().fieldId("density");
    int phi = md.state().fieldId("potential");
    int ndim = md.block(0).mesh().ndim();
    double dV = Math.pow(cellWidth(md), ndim);
    IndexBox box = interior(md);
    double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      int centre = md.index(phi, b, 0, box.k().s(), box.j().s(), box.i().s());
      for (int n = 0; n < stencil.size(); n++) {
        shift[n] = md.index(phi, b, 0, box.k().s() + stencil.dk()[n],
            box.j().s() + stencil.dj()[n], box.i().s() + stencil.di()[n]) - centre;
      }
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            int c = md.index(phi, b, 0, k, j, i);
            double rhs = dV * a[md.index(rho, b, 0, k, j, i)];
            a[delta.index(phi, b, 0, k, j, i)] = stencil.jacobi(a, c, shift, rhs) - a[c];
          }
        }
      }
    }
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            a[md.index(phi, b, 0, k, j, i)] += a[delta.index(phi, b, 0, k, j, i)];
          }
        }
      }
    }
  }

  /** Per block, the sum of {@code dphi^2} over its interior (Parthenon's {@code SumDeltaPhi}). */
  static void sumDeltaPhi(MeshData delta, double[] perBlock) {
    int phi = delta.state().fieldId("potential");
    double[] a = delta.data();
    ParReduce.perBlock(delta, interior(delta), ReduceOp.SUM, 0.0, (b, k, j, i) -> {
      double d = a[delta.index(phi, b, 0, k, j, i)];
      return d * d;
    }, perBlock);
  }

  /** Per block, the mass {@code sum(density) dx^ndim} (Parthenon's {@code SumMass}). */
  static void sumMass(MeshData md, double[] perBlock) {
    int rho = md.state().fieldId("density");
    double dV = Math.pow(cellWidth(md), md.block(0).mesh().ndim());
    double[] a = md.data();
    ParReduce.perBlock(md, interior(md), ReduceOp.SUM, 0.0,
        (b, k, j, i) -> a[md.index(rho, b, 0, k, j, i)] * dV, perBlock);
  }

  /**
   * The largest {@code min(|dphi / phi|, |dphi|)} of the partition (Parthenon's {@code
   * CheckConvergence}, whose ratio adds {@code 10 * Double.MIN_NORMAL} with the sign of {@code
   * phi} to the denominator).
   */
  static double largestChange(MeshData md, MeshData delta) {
    int phi = md.state().fieldId("potential");
    double[] a = md.data();
    return ParReduce.max(md, interior(md), (b, k, j, i) -> {
      double d = a[delta.index(phi, b, 0, k, j, i)];
      double v = a[md.index(phi, b, 0, k, j, i)];
      double small = (v >= 0 ? 1.0 : -1.0) * SMALL;
      return Math.min(Math.abs(d / (v + small)), Math.abs(d));
    });
  }

  /** Parthenon's {@code robust::SMALL}: ten times the smallest normal double. */
  private static final double SMALL = 10 * Double.MIN_NORMAL;
}
