package org.metope.examples.advection;

import java.util.List;
import org.metope.mesh.field.DoubleParam;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code advection_package} of Parthenon's advection example: a scalar (or several vector
 * fields) carried by a constant velocity, with the deck keys, defaults, fields, history outputs and
 * callbacks of Parthenon's {@code advection_package::Initialize}; its fluxes are {@link
 * AdvectionFluxes}, which a flux driver runs.
 *
 * <p>{@code <Advection>} keys (defaults): {@code cfl} (0.45), {@code v_const} (true: the velocity
 * is {@code vx, vy, vz}; false: a cell field {@code v} carries it), {@code vx}, {@code vy}, {@code
 * vz} (1.0), {@code refine_tol} (0.3), {@code derefine_tol} (0.03), {@code profile} ({@code wave}
 * | {@code smooth_gaussian} | {@code hard_sphere} | {@code block}), {@code amp} (1e-6), {@code
 * ang_2}, {@code ang_3} (the wave vector's angles; by default one wavelength along each axis),
 * {@code ang_2_vert}, {@code ang_3_vert} (false), {@code fill_derived} (true), {@code vec_size} (1),
 * {@code num_vars} (1) and {@code compute_error} (false), all read at set-up.
 *
 * <p>Fields: {@code advected}, {@code advected_1}, ... ({@code num_vars} of them, {@code vec_size}
 * components each, independent, with fluxes, filled in ghosts); {@code v} unless {@code v_const};
 * with {@code fill_derived} the derived {@code one_minus_advected}, {@code one_minus_advected_sq}
 * and the sparse pool {@code one_minus_sqrt_one_minus_advected_sq} (ids 12 and 37); and {@code
 * my_derived_var}, filled before outputs.
 */
public final class AdvectionPackage {
  /** The package label, as in Parthenon. */
  public static final String NAME = "advection_package";
  /** The deck block of the package's keys. */
  public static final String BLOCK = "Advection";
  /** The profiles a deck may choose. */
  public static final List<String> PROFILES =
      List.of("wave", "smooth_gaussian", "hard_sphere", "block");

  /** The most variables or components: more is a typo, and would exhaust message tags. */
  static final int MAX_COUNT = 1000;
  /**
   * The largest Courant number: the explicit donor-cell update of one axis amplifies every mode
   * above 1, whatever the integrator (at 1 it shifts the profile one cell exactly, in 1D).
   */
  static final double MAX_CFL = 1.0;
  /** The largest amplitude: squares of values up to it, summed over 10^100 cells, stay finite. */
  static final double MAX_AMPLITUDE = 1e100;
  /** Parthenon's marker for "angle not given"; a user never enters it. */
  private static final double UNSET_ANGLE = -999.9;

  private AdvectionPackage() {}

  /**
   * {@code <Advection> cfl} (default 0.45), checked: a Courant number in (0, {@value #MAX_CFL}]
   * (advection's and fine_advection's donor-cell updates share the bound).
   */
  public static double courantNumber(ParameterInput pin) {
    double cfl = pin.getOrAddReal(BLOCK, "cfl", 0.45);
    if (!(cfl > 0.0 && cfl <= MAX_CFL)) {
      throw pin.error(BLOCK, "cfl", "a Courant number in (0, " + MAX_CFL + "] (the time step is"
          + " cfl times the cell crossing time; the donor-cell update is unstable above 1)");
    }
    return cfl;
  }

  /** Reads {@code <Advection>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("cfl", courantNumber(pin));
    boolean vConst = pin.getOrAddBoolean(BLOCK, "v_const", true);
    double vx = pin.getOrAddReal(BLOCK, "vx", 1.0);
    double vy = pin.getOrAddReal(BLOCK, "vy", 1.0);
    double vz = pin.getOrAddReal(BLOCK, "vz", 1.0);
    pkg.addParam("refine_tol", pin.getOrAddReal(BLOCK, "refine_tol", 0.3));
    pkg.addParam("derefine_tol", pin.getOrAddReal(BLOCK, "derefine_tol", 0.03));
    pkg.addParam("profile", pin.getOrAddString(BLOCK, "profile", "wave", PROFILES));
    double amp = pin.getOrAddReal(BLOCK, "amp", 1e-6);
    if (!(Math.abs(amp) <= MAX_AMPLITUDE)) {
      throw pin.error(BLOCK, "amp", "an amplitude of at most " + MAX_AMPLITUDE + " in magnitude"
          + " (the powers of it the history sums overflow beyond it)");
    }
    double vel = StrictMath.sqrt(vx * vx + vy * vy + vz * vz);
    boolean fillDerived = addWaveParams(pkg, pin);
    pkg.addParam("fill_derived", fillDerived);
    pkg.addParam("amp", amp);
    pkg.addParam("vel", vel);
    pkg.addParam("vx", vx);
    pkg.addParam("vy", vy);
    pkg.addParam("vz", vz);
    // Parthenon reads v_const and compute_error from the deck where it needs them: not written.
    pkg.addUnwrittenParam("v_const", vConst);
    int vecSize = pin.getOrAddInteger(BLOCK, "vec_size", 1);
    int numVars = pin.getOrAddInteger(BLOCK, "num_vars", 1);
    if (vecSize < 1 || vecSize > MAX_COUNT) {
      throw pin.error(BLOCK, "vec_size", "an integer from 1 to " + MAX_COUNT);
    }
    if (numVars < 1 || numVars > MAX_COUNT) {
      throw pin.error(BLOCK, "num_vars", "an integer from 1 to " + MAX_COUNT + " (each is a"
          + " field with its own boundary channels and message tags)");
    }
    pkg.addParam("vec_size", vecSize);
    pkg.addParam("num_vars", numVars);
    pkg.addUnwrittenParam("compute_error", pin.getOrAddBoolean(BLOCK, "compute_error", false));
    addFields(pkg, vConst, fillDerived, vecSize, numVars);
    addHistoryOutputs(pkg);
    if (fillDerived) {
      pkg.setFillDerived(AdvectionDerived::squareIt);
    }
    DoubleParam refineTol = pkg.params().doubleHandle("refine_tol");
    DoubleParam derefineTol = pkg.params().doubleHandle("derefine_tol");
    pkg.setCheckRefinement(new AdvectionRefinement(refineTol, derefineTol, numVars));
    pkg.setEstimateTimestep(new AdvectionTimestep(pkg.params()));
    pkg.setCalculateFluxes(new AdvectionFluxes(pkg.params()));
    return pkg;
  }

  /**
   * The wave's direction and wave number (Parthenon's rule: without {@code ang_2}/{@code ang_3},
   * the angles that give one wavelength along each axis of the domain); returns {@code
   * fill_derived}, which Parthenon reads between the angle switches and the mesh extents.
   */
  private static boolean addWaveParams(StateDescriptor pkg, ParameterInput pin) {
    double ang2 = pin.getOrAddReal(BLOCK, "ang_2", UNSET_ANGLE);
    double ang3 = pin.getOrAddReal(BLOCK, "ang_3", UNSET_ANGLE);
    boolean ang2Vert = pin.getOrAddBoolean(BLOCK, "ang_2_vert", false);
    boolean ang3Vert = pin.getOrAddBoolean(BLOCK, "ang_3_vert", false);
    boolean fillDerived = pin.getOrAddBoolean(BLOCK, "fill_derived", true);
    String mesh = "parthenon/mesh";
    double x1size = pin.getOrAddReal(mesh, "x1max", 1.5) - pin.getOrAddReal(mesh, "x1min", -1.5);
    double x2size = pin.getOrAddReal(mesh, "x2max", 1.0) - pin.getOrAddReal(mesh, "x2min", -1.0);
    double x3size = pin.getOrAddReal(mesh, "x3max", 1.0) - pin.getOrAddReal(mesh, "x3min", -1.0);
    if (ang3 == UNSET_ANGLE) {
      ang3 = StrictMath.atan(x1size / x2size);
    }
    double sinA3 = StrictMath.sin(ang3);
    double cosA3 = StrictMath.cos(ang3);
    if (ang3Vert) {
      sinA3 = 1.0;
      cosA3 = 0.0;
      ang3 = 0.5 * Math.PI;
    }
    if (ang2 == UNSET_ANGLE) {
      ang2 = StrictMath.atan(0.5 * (x1size * cosA3 + x2size * sinA3) / x3size);
    }
    double sinA2 = StrictMath.sin(ang2);
    double cosA2 = StrictMath.cos(ang2);
    if (ang2Vert) {
      sinA2 = 1.0;
      cosA2 = 0.0;
      ang2 = 0.5 * Math.PI;
    }
    double x1 = x1size * cosA2 * cosA3;
    double x2 = x2size * cosA2 * sinA3;
    double x3 = x3size * sinA2;
    double lambda = x1;
    if (pin.getOrAddInteger(mesh, "nx2", 1) > 1 && ang3 != 0.0) {
      lambda = Math.min(lambda, x2);
    }
    if (pin.getOrAddInteger(mesh, "nx3", 1) > 1 && ang2 != 0.0) {
      lambda = Math.min(lambda, x3);
    }
    if (ang3Vert) {
      lambda = x2;
    }
    if (ang2Vert) {
      lambda = x3;
    }
    pkg.addParam("k_par", 2.0 * Math.PI / lambda);
    pkg.addParam("cos_a2", cosA2);
    pkg.addParam("cos_a3", cosA3);
    pkg.addParam("sin_a2", sinA2);
    pkg.addParam("sin_a3", sinA3);
    return fillDerived;
  }

  private static void addFields(StateDescriptor pkg, boolean vConst, boolean fillDerived,
      int vecSize, int numVars) {
    for (int var = 0; var < numVars; var++) {
      String[] labels = new String[vecSize];
      for (int j = 0; j < vecSize; j++) {
        labels[j] = var + "_" + j;
      }
      pkg.addField(advectedName(var), Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
          Metadata.WITH_FLUXES, Metadata.FILL_GHOST).shape(vecSize).componentLabels(labels)
          .build());
    }
    if (!vConst) {
      pkg.addField("v", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
          Metadata.WITH_FLUXES, Metadata.FILL_GHOST, Metadata.VECTOR).shape(3)
          .componentLabels("vx", "vy", "vz").build());
    }
    if (fillDerived) {
      Metadata derived = Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY)
          .shape(numVars).build();
      pkg.addField("one_minus_advected", derived);
      pkg.addField("one_minus_advected_sq", derived);
      pkg.addSparsePool("one_minus_sqrt_one_minus_advected_sq", Metadata.builder(Metadata.CELL,
          Metadata.DERIVED, Metadata.ONE_COPY, Metadata.SPARSE, Metadata.RESTART)
          .shape(numVars).build(), 12, 37);
    }
    pkg.addField("my_derived_var",
        Metadata.builder(Metadata.CELL, Metadata.ONE_COPY).shape(1).build());
  }

  /** The name of advected variable {@code var}: {@code advected}, then {@code advected_1}, ... */
  public static String advectedName(int var) {
    return var == 0 ? "advected" : "advected_" + var;
  }

  private static void addHistoryOutputs(StateDescriptor pkg) {
    pkg.addHistoryOutput(HistoryOutput.of(Operation.SUM, "total_advected",
        AdvectionHistory::totalAdvected));
    pkg.addHistoryOutput(HistoryOutput.of(Operation.MAX, "max_advected",
        AdvectionHistory::maxAdvected));
    pkg.addHistoryOutput(HistoryOutput.of(Operation.MIN, "min_advected",
        AdvectionHistory::minAdvected));
    pkg.addHistoryOutput(HistoryOutput.vector(Operation.SUM, "advected_powers",
        AdvectionHistory.POWERS, AdvectionHistory::advectedPowers));
  }
}
