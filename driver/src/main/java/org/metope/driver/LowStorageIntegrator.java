package org.metope.driver;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.input.ParameterInput;

/**
 * A low-storage Runge-Kutta integrator of Shu-Osher form (Parthenon's {@code
 * LowStorageIntegrator}), selected by {@code <parthenon/time> integrator}: {@code rk1} (forward
 * Euler), {@code rk2} (Heun), {@code vl2} (van Leer predictor-corrector), {@code rk3} (SSP RK3)
 * and {@code rk4} (SSPRK(5,4) of Ketcheson 2010, Table 4).
 *
 * <p>Stage {@code s} (1-based) reads {@code stageName(s - 1)} and writes {@code stageName(s)}; the
 * names run {@code base, 1, 2, ..., base}, so the last stage writes back into {@code base}. A
 * driver combines the containers with the per-stage weights {@link #delta}, {@link #beta}, {@link
 * #gam0}, {@link #gam1}; {@link #c} is each stage's time offset as a fraction of the step.
 */
public final class LowStorageIntegrator {
  /** The integrators accepted by {@code <parthenon/time> integrator}. */
  public static final List<String> NAMES = List.of("rk1", "rk2", "vl2", "rk3", "rk4");

  private final String name;
  private final double[] delta;
  private final double[] beta;
  private final double[] gam0;
  private final double[] gam1;
  private final double[] c;
  private final int nbuffers;
  private final List<String> stageNames;
  private double dt;

  private LowStorageIntegrator(String name, int nbuffers, double[][] rows) {
    this.name = name;
    this.nbuffers = nbuffers;
    int n = rows.length;
    delta = new double[n];
    beta = new double[n];
    gam0 = new double[n];
    gam1 = new double[n];
    c = new double[n];
    for (int s = 0; s < n; s++) {
      delta[s] = rows[s][0];
      beta[s] = rows[s][1];
      gam0[s] = rows[s][2];
      gam1[s] = rows[s][3];
      c[s] = rows[s][4];
    }
    stageNames = periodicNames(n);
  }

  /**
   * The integrator called {@code name}.
   *
   * @throws IllegalArgumentException for a name not in {@link #NAMES}
   */
  public static LowStorageIntegrator of(String name) {
    // Each row: delta, beta, gam0, gam1, c.
    return switch (name) {
      case "rk1" -> new LowStorageIntegrator(name, 1, new double[][] {{1.0, 1.0, 0.0, 1.0, 0.0}});
      case "rk2" -> new LowStorageIntegrator(name, 2, new double[][] {
          {1.0, 1.0, 0.0, 1.0, 0.0},
          {0.0, 0.5, 0.5, 0.5, 1.0}});
      case "vl2" -> new LowStorageIntegrator(name, 2, new double[][] {
          {1.0, 0.5, 0.0, 1.0, 0.0},
          {0.0, 1.0, 0.0, 1.0, 0.5}});
      case "rk3" -> new LowStorageIntegrator(name, 2, new double[][] {
          {1.0, 1.0, 0.0, 1.0, 0.0},
          {0.0, 0.25, 0.25, 0.75, 1.0},
          {0.0, 2.0 / 3.0, 2.0 / 3.0, 1.0 / 3.0, 0.5}});
      case "rk4" -> new LowStorageIntegrator(name, 2, new double[][] {
          {1.0, 0.357534921136978, 0.0, 1.0, 0.0},
          {0.0, 2.364680399061355, -3.666545952121251, 4.666545952121251, 0.357534921136978},
          {0.0, 0.016239790859612, 0.035802535958088, 0.964197464041912, 1.0537621812245777},
          {0.0, 0.498173799587251, 4.398279365655791, -3.398279365655790, 0.05396714924417825},
          {0.0, 0.433334235669763, 0.770411587328417, 0.229588412671583, 0.7355363985311864}});
      default -> throw new IllegalArgumentException("integrator name=" + name + " is none of "
          + NAMES);
    };
  }

  /**
   * The integrator {@code <parthenon/time> integrator} names (default {@code rk2}).
   *
   * @throws org.metope.mesh.input.InputError for an unknown name
   */
  public static LowStorageIntegrator fromInput(ParameterInput pin) {
    return of(pin.getOrAddString("parthenon/time", "integrator", "rk2", NAMES));
  }

  private static List<String> periodicNames(int n) {
    List<String> names = new ArrayList<>(n + 1);
    names.add("base");
    for (int i = 1; i < n; i++) {
      names.add(Integer.toString(i));
    }
    names.add("base");
    return List.copyOf(names);
  }

  /** The integrator's deck name. */
  public String name() {
    return name;
  }

  /** Number of stages per step. */
  public int nstages() {
    return beta.length;
  }

  /** Number of time levels the scheme needs (Parthenon's {@code nbuffers}). */
  public int nbuffers() {
    return nbuffers;
  }

  /** The container stage {@code s} reads (index {@code s - 1}) or writes (index {@code s}). */
  public String stageName(int index) {
    return stageNames.get(index);
  }

  /** The stage container names {@code base, 1, ..., base} ({@code nstages + 1} entries). */
  public List<String> stageNames() {
    return stageNames;
  }

  /** The distinct stage containers, {@code base} first. */
  public List<String> containerNames() {
    return stageNames.subList(0, nstages());
  }

  /** Weight of the previous stage in the first-averaging form, for stage {@code s} (1-based). */
  public double delta(int stage) {
    return delta[stage - 1];
  }

  /** Weight of {@code dt * dU/dt} in stage {@code s} (1-based). */
  public double beta(int stage) {
    return beta[stage - 1];
  }

  /** Weight of the stage input in stage {@code s} (1-based). */
  public double gam0(int stage) {
    return gam0[stage - 1];
  }

  /** Weight of the second register in stage {@code s} (1-based). */
  public double gam1(int stage) {
    return gam1[stage - 1];
  }

  /** Time offset of stage {@code s} (1-based) as a fraction of the step. */
  public double c(int stage) {
    return c[stage - 1];
  }

  /** The step being taken; set by the driver before the stages run. */
  public double dt() {
    return dt;
  }

  /** Sets the step being taken. */
  public void setDt(double dt) {
    this.dt = dt;
  }
}
