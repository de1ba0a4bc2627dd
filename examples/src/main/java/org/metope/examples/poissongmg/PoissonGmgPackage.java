package org.metope.examples.poissongmg;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.metope.examples.libm.GlibcExp;
import org.metope.mesh.CompositeLevels;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.IndexBox;
import org.metope.solvers.BiCGStabSolver;
import org.metope.solvers.MultigridParams;
import org.metope.solvers.MultigridSolver;
import org.metope.solvers.SolverParams;

/**
 * The package of Parthenon's {@code poisson_gmg} example: {@code div(D grad u) - alpha u = rhs}
 * with a piecewise constant coefficient {@code D} (interior_D inside two boxes, exterior_D
 * elsewhere), solved by geometric multigrid ({@link MultigridSolver}).
 *
 * <p>{@code <poisson>} keys (defaults as Parthenon's): {@code solver} ({@code MG}, or {@code
 * BiCGSTAB}, preconditioned by a V-cycle unless {@code precondition = false}), {@code
 * diagonal_alpha} (0), {@code
 * flux_correct} (false; nothing to correct without refinement), {@code use_exact_rhs} (false:
 * {@code rhs} is 1 inside the sphere {@code x0, y0, z0, radius}; true: {@code rhs = A exact} for
 * {@code exact = -exp(-10 r^2)}), {@code interior_D} and {@code exterior_D} (1), {@code
 * max_iterations} (10000) and {@code error_tolerance} (1e-8), read as Parthenon reads them; the
 * solvers' own keys in {@code <poisson/solver_params>} ({@link MultigridParams}, {@link
 * SolverParams} and {@code precondition}, true).
 *
 * <p>Fields: {@code u} (the solution, ghosts filled), {@code rhs}, {@code exact}, {@code D} (3
 * components: the coefficient on each cell's lower face along x1, x2, x3; the upper face of the
 * last cell sits in the first ghost cell) and the solvers' {@code mg_*} and {@code bicgstab_*}.
 */
public final class PoissonGmgPackage {
  /** The package label. */
  public static final String NAME = "poisson_package";
  /** The deck block. */
  public static final String BLOCK = "poisson";
  /** The solver's deck block. */
  public static final String SOLVER_BLOCK = "poisson/solver_params";
  /** The solver's name (the prefix of its fields). */
  static final String SOLVER = "mg";
  /** The BiCGSTAB solver's name. */
  static final String KRYLOV = "bicgstab";
  static final String U = "u";
  static final String RHS = "rhs";
  static final String EXACT = "exact";
  static final String D = "D";

  private PoissonGmgPackage() {}

  /** Reads {@code <poisson>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    return initialize(pin, RefinementOps.LINEAR);
  }

  /**
   * The package with {@code uRefinement} as the refinement operators of {@code u} (tests: the
   * min-mod default is the control that shows what Parthenon's linear ones change).
   */
  static StateDescriptor initialize(ParameterInput pin, RefinementOps uRefinement) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("max_iterations", pin.getOrAddInteger(BLOCK, "max_iterations", 10000));
    pkg.addParam("diagonal_alpha", pin.getOrAddReal(BLOCK, "diagonal_alpha", 0.0));
    String solver = pin.getOrAddString(BLOCK, "solver", "MG", List.of("MG", "BiCGSTAB"));
    pkg.addParam("solver", solver);
    pkg.addParam("flux_correct", pin.getOrAddBoolean(BLOCK, "flux_correct", false));
    pkg.addParam("error_tolerance", pin.getOrAddReal(BLOCK, "error_tolerance", 1.e-8));
    pkg.addParam("use_exact_rhs", pin.getOrAddBoolean(BLOCK, "use_exact_rhs", false));
    pkg.addParam("parthenon_x3_flux", pin.getOrAddBoolean(BLOCK, "parthenon_x3_flux", false));
    pkg.addUnwrittenParam("x0", pin.getOrAddReal(BLOCK, "x0", 0.0));
    pkg.addUnwrittenParam("y0", pin.getOrAddReal(BLOCK, "y0", 0.0));
    pkg.addUnwrittenParam("z0", pin.getOrAddReal(BLOCK, "z0", 0.0));
    pkg.addUnwrittenParam("radius", pin.getOrAddReal(BLOCK, "radius", 0.1));
    pkg.addUnwrittenParam("interior_D", pin.getOrAddReal(BLOCK, "interior_D", 1.0));
    pkg.addUnwrittenParam("exterior_D", pin.getOrAddReal(BLOCK, "exterior_D", 1.0));
    pkg.addUnwrittenParam("mg_params", MultigridParams.fromInput(pin, SOLVER_BLOCK));
    // Parthenon's package also reads its BiCGSTAB solver's keys from the same block.
    pkg.addUnwrittenParam("bicgstab_params", SolverParams.fromInput(pin, SOLVER_BLOCK));
    pkg.addParam("precondition", pin.getOrAddBoolean(SOLVER_BLOCK, "precondition", true));
    pkg.addField(D, Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.ONE_COPY)
        .shape(3).build());
    // Linear ghost prolongation at fine-coarse boundaries, as Parthenon's u: min-mod slopes
    // would make the discrete operator nonlinear, and the solvers assume a linear one.
    pkg.addField(U, Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .refinementOps(uRefinement).build());
    pkg.addField(RHS, Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField(EXACT, Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    MultigridSolver.addFields(pkg, SOLVER);
    if (solver.equals("BiCGSTAB")) {
      BiCGStabSolver.addFields(pkg, KRYLOV);
    }
    return pkg;
  }

  /** The package's parameters, seen from a partition. */
  static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(NAME).params();
  }

  /**
   * Block {@code b}'s initial state over all its cells, ghosts included (Parthenon's {@code
   * ProblemGenerator}, its coordinates taken as it takes them: the x3 of a cell and of an x3 face
   * are read from the x2 centres, as its {@code X<2>} calls do), with {@code exp} for the exact
   * solution ({@link GlibcExp#exp}: the C library's bits that Parthenon's example gets).
   */
  static void generate(MeshData md, int b, DoubleUnaryOperator exp) {
    Params p = params(md);
    double x0 = p.getDouble("x0");
    double y0 = p.getDouble("y0");
    double z0 = p.getDouble("z0");
    double radius = p.getDouble("radius");
    double inD = p.getDouble("interior_D");
    double outD = p.getDouble("exterior_D");
    int ndim = md.block(b).mesh().ndim();
    int rhs = md.state().fieldId(RHS);
    int u = md.state().fieldId(U);
    int exact = md.state().fieldId(EXACT);
    int d = md.state().fieldId(D);
    UniformCartesian c = md.block(b).coords();
    IndexBox all = IndexBox.of(md.block(b).cellBounds(), IndexDomain.ENTIRE);
    double[] a = md.data();
    for (int k = all.k().s(); k <= all.k().e(); k++) {
      for (int j = all.j().s(); j <= all.j().e(); j++) {
        for (int i = all.i().s(); i <= all.i().e(); i++) {
          double x1 = c.x1c(i);
          double x2 = c.x2c(j);
          double x3 = c.x2c(k);
          double rad = (x1 - x0) * (x1 - x0);
          if (ndim > 1) {
            rad += (x2 - y0) * (x2 - y0);
          }
          if (ndim > 2) {
            rad += (x3 - z0) * (x3 - z0);
          }
          rad = Math.sqrt(rad);
          a[md.index(rhs, b, 0, k, j, i)] = rad < radius ? 1.0 : 0.0;
          a[md.index(u, b, 0, k, j, i)] = 0.0;
          a[md.index(exact, b, 0, k, j, i)] = -exp.applyAsDouble(-10.0 * rad * rad);
          a[md.index(d, b, 0, k, j, i)] = inside(ndim, c.x1f(i), x2, x3) ? inD : outD;
          a[md.index(d, b, 1, k, j, i)] = inside(ndim, x1, c.x2f(j), x3) ? inD : outD;
          a[md.index(d, b, 2, k, j, i)] = inside(ndim, x1, x2, x2) ? inD : outD;
        }
      }
    }
  }

  /** Whether a point lies in one of the two boxes where {@code D} is interior_D. */
  private static boolean inside(int ndim, double x, double y, double z) {
    boolean first = x < -0.25 && x > -0.75;
    boolean second = x < 0.5 && x > -0.75;
    if (ndim > 1) {
      first = first && y < 0.5 && y > -0.5;
      second = second && y < -0.25 && y > -0.75;
    }
    if (ndim > 2) {
      first = first && z < 0.25 && z > -0.25;
      second = second && z < 0.25 && z > -0.25;
    }
    return first || second;
  }

  /**
   * Restricts {@code D} from a partition to the partition one multigrid level coarser (each block
   * that has a parent there, {@code links}, into the part of its parent it covers), as Parthenon
   * restricts its face field at set-up ({@code RestrictAverage} on faces): each coarse face the
   * area-weighted average of the fine faces it covers, summed in Parthenon's pairing. It covers
   * the faces of the block's interior cells, the upper face of the last cell included.
   */
  static void restrictCoefficient(MeshData fine, CompositeLevels links, MeshData coarse) {
    int d = fine.state().fieldId(D);
    int ndim = fine.block(0).mesh().ndim();
    IndexBox cin = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
    IndexBox fin = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
    int[] fs = {fin.i().s(), fin.j().s(), fin.k().s()};
    int[] half = {(fin.i().e() - fs[0] + 1) / 2, ndim > 1 ? (fin.j().e() - fs[1] + 1) / 2 : 1,
        ndim > 2 ? (fin.k().e() - fs[2] + 1) / 2 : 1};
    int[] cs = new int[3];
    for (int b = 0; b < fine.numBlocks(); b++) {
      int r = fine.blockIndex(b);
      if (links.parent()[r] < 0) {
        continue;
      }
      int p = links.parent()[r] - coarse.blockIndex(0);
      cs[0] = cin.i().s() + links.childIndex()[r][0] * half[0];
      cs[1] = cin.j().s() + links.childIndex()[r][1] * half[1];
      cs[2] = cin.k().s() + links.childIndex()[r][2] * half[2];
      UniformCartesian fc = fine.block(b).coords();
      for (int axis = 0; axis < ndim; axis++) {
        FaceAverage avg = new FaceAverage(fine, coarse, d, b, p, axis, ndim, fc.faceArea(axis));
        int[] hi = {cs[0] + half[0] - 1, cs[1] + half[1] - 1, cs[2] + half[2] - 1};
        hi[axis]++;
        for (int k = cs[2]; k <= hi[2]; k++) {
          for (int j = cs[1]; j <= hi[1]; j++) {
            for (int i = cs[0]; i <= hi[0]; i++) {
              avg.at(i, j, k, cs, fs);
            }
          }
        }
      }
    }
  }

  /** One coarse face's average over its fine faces (absent children zero, Parthenon's pairing). */
  private record FaceAverage(MeshData fine, MeshData coarse, int d, int b, int p, int axis,
      int ndim, double area) {
    void at(int i, int j, int k, int[] cs, int[] fs) {
      int fi = ndim > 0 ? (i - cs[0]) * 2 + fs[0] : fs[0];
      int fj = ndim > 1 ? (j - cs[1]) * 2 + fs[1] : fs[1];
      int fk = ndim > 2 ? (k - cs[2]) * 2 + fs[2] : fs[2];
      boolean x1 = axis != 0;
      boolean x2 = ndim > 1 && axis != 1;
      boolean x3 = ndim > 2 && axis != 2;
      double[] t = new double[8];
      double[] v = new double[8];
      for (int ok = 0; ok < (x3 ? 2 : 1); ok++) {
        for (int oj = 0; oj < (x2 ? 2 : 1); oj++) {
          for (int oi = 0; oi < (x1 ? 2 : 1); oi++) {
            int n = 4 * ok + 2 * oj + oi;
            v[n] = area;
            t[n] = area * fine.data()[fine.index(d, b, axis, fk + ok, fj + oj, fi + oi)];
          }
        }
      }
      double total = ((v[0] + v[2]) + (v[1] + v[3])) + ((v[4] + v[6]) + (v[5] + v[7]));
      coarse.data()[coarse.index(d, p, axis, k, j, i)] =
          (((t[0] + t[2]) + (t[1] + t[3])) + ((t[4] + t[6]) + (t[5] + t[7]))) / total;
    }
  }
}
