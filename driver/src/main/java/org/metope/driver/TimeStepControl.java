package org.metope.driver;

import org.metope.mesh.DriverError;

import org.metope.mesh.SimTime;

import org.metope.mesh.input.ParameterInput;

/**
 * The time step rules of {@code <parthenon/time>} (Parthenon's {@code
 * EvolutionDriver::SetGlobalTimeStep}): how the step of the next cycle follows from the smallest
 * step the packages allow on any block of any rank.
 *
 * <ul>
 *   <li>{@code dt_force}: when positive, every step is exactly this;
 *   <li>{@code dt_init} with {@code dt_init_force = true}: the first step is exactly this;
 *       otherwise the first step is at most {@code dt_init};
 *   <li>{@code dt_factor} (default 2): a step grows by at most this factor over the previous one;
 *   <li>{@code dt_user}: an upper limit; {@code dt_floor} and {@code dt_ceil}: the step is clamped
 *       to {@code [dt_floor, dt_ceil]};
 *   <li>{@code dt_min} / {@code dt_min_cycle_limit} (default 10) and {@code dt_max} / {@code
 *       dt_max_cycle_limit} (default 1): the run fails when the step stays at or below {@code
 *       dt_min} (at or above {@code dt_max}) for that many consecutive cycles;
 *   <li>finally the step is shortened so as not to pass {@code tlim}.
 * </ul>
 *
 * Defaults are Parthenon's: unset limits are the largest double or the smallest normal double.
 */
public final class TimeStepControl {
  private static final String TIME = "parthenon/time";

  private final double dtUser;
  private final double dtForce;
  private final double dtInit;
  private final boolean dtInitForce;
  private final double dtMin;
  private final double dtMax;
  private final double dtFloor;
  private final double dtCeil;
  private final double dtFactor;
  private final int dtMinCycleLimit;
  private final int dtMaxCycleLimit;
  private int dtMinCount;
  private int dtMaxCount;

  /** Reads the step controls of {@code <parthenon/time>}, recording defaults in the deck. */
  public TimeStepControl(ParameterInput pin) {
    dtMin = pin.getOrAddReal(TIME, "dt_min", Double.MIN_NORMAL);
    dtMax = pin.getOrAddReal(TIME, "dt_max", Double.MAX_VALUE);
    dtInit = pin.getOrAddReal(TIME, "dt_init", Double.MAX_VALUE);
    dtInitForce = pin.getOrAddBoolean(TIME, "dt_init_force", false);
    dtUser = pin.getOrAddReal(TIME, "dt_user", Double.MAX_VALUE);
    dtForce = pin.getOrAddReal(TIME, "dt_force", -Double.MAX_VALUE);
    dtFloor = pin.getOrAddReal(TIME, "dt_floor", Double.MIN_NORMAL);
    dtCeil = pin.getOrAddReal(TIME, "dt_ceil", Double.MAX_VALUE);
    dtMinCycleLimit = pin.getOrAddInteger(TIME, "dt_min_cycle_limit", 10);
    dtMaxCycleLimit = pin.getOrAddInteger(TIME, "dt_max_cycle_limit", 1);
    dtFactor = pin.getOrAddReal(TIME, "dt_factor", 2.0);
    String[] positiveKeys = {"dt_max", "dt_user", "dt_floor", "dt_ceil", "dt_factor"};
    double[] positiveValues = {dtMax, dtUser, dtFloor, dtCeil, dtFactor};
    for (int k = 0; k < positiveKeys.length; k++) {
      if (!(positiveValues[k] > 0.0)) {
        throw pin.error(TIME, positiveKeys[k], "a positive real");
      }
    }
  }

  /**
   * Sets {@code tm}'s step for the next cycle.
   *
   * @param tm the clock; its current step is the previous one
   * @param allowedDt the smallest step any package allows anywhere, already reduced over every
   *     rank, so that every rank computes the same step ({@code Double.MAX_VALUE} for no limit)
   * @throws DriverError when the step stayed out of {@code [dt_min, dt_max]} too long
   */
  public void setGlobalTimeStep(SimTime tm, double allowedDt) {
    double dt = tm.dt();
    if (dtForce > 0.0) {
      dt = dtForce;
    } else if (tm.ncycle() == 0 && dtInitForce && dtInit > 0.0) {
      dt = dtInit;
    } else {
      if (dt < 0.1 * Double.MAX_VALUE) {
        dt *= dtFactor;
      }
      if (tm.ncycle() == 0) {
        dt = Math.min(dt, dtInit);
      }
      dt = Math.min(dt, allowedDt);
      dt = Math.min(dt, dtUser);
      dt = Math.max(dtFloor, Math.min(dt, dtCeil));
    }
    checkBounds(dt);
    if (tm.time() < tm.tlim() && (tm.tlim() - tm.time()) < dt) {
      dt = tm.tlim() - tm.time();
    }
    tm.setDt(dt);
  }

  /**
   * Sets {@code tm}'s first step after a restart: the file's step (so a resumed run repeats the
   * uninterrupted one bit for bit), but never larger than the packages allow now, {@code dt_user}
   * or {@code dt_ceil} (a step no run can have written, or a smaller {@code cfl} given on resuming),
   * and shortened so as not to pass {@code tlim}; {@code dt_force} wins as in every cycle.
   *
   * @param allowedDt the smallest step any package allows on the restored fields, over every rank
   * @return whether the file's step was larger than the packages allow
   */
  public boolean setResumedTimeStep(SimTime tm, double allowedDt) {
    double dt = tm.dt();
    boolean tooLarge = dt > allowedDt;
    if (dtForce > 0.0) {
      dt = dtForce;
    } else {
      dt = Math.min(dt, Math.min(allowedDt, Math.min(dtUser, dtCeil)));
    }
    if (tm.time() < tm.tlim() && (tm.tlim() - tm.time()) < dt) {
      dt = tm.tlim() - tm.time();
    }
    tm.setDt(dt);
    return tooLarge;
  }

  private void checkBounds(double dt) {
    if (dt <= dtMin) {
      if (++dtMinCount >= dtMinCycleLimit) {
        throw new DriverError("the time step has fallen below the minimum (" + TIME + "/dt_min = "
            + dtMin + ") for " + dtMinCycleLimit + " cycles (" + TIME + "/dt_min_cycle_limit)");
      }
    } else {
      dtMinCount = 0;
    }
    if (dt >= dtMax) {
      if (++dtMaxCount >= dtMaxCycleLimit) {
        throw new DriverError("the time step has risen above the maximum (" + TIME + "/dt_max = "
            + dtMax + ") for " + dtMaxCycleLimit + " cycles (" + TIME + "/dt_max_cycle_limit);"
            + " does any package limit the time step, and is " + TIME + "/tlim set?");
      }
    } else {
      dtMaxCount = 0;
    }
  }
}
