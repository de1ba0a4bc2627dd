package org.metope.driver;

import org.metope.mesh.DriverError;

import org.metope.mesh.SimTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.input.ParameterInput;

class TimeStepControlTest {
  private static TimeStepControl control(String... overrides) {
    return new TimeStepControl(ParameterInput.parse("t.in", "<parthenon/time>\n",
        List.of(overrides)));
  }

  private static SimTime clock(double tlim) {
    return new SimTime(0.0, tlim, -1, 0, 1, 0, Double.MAX_VALUE);
  }

  @Test
  void givenNoControls_thenTheStepIsThePackagesLimit() {
    SimTime tm = clock(10.0);
    control().setGlobalTimeStep(tm, 0.25);
    assertEquals(0.25, tm.dt());
  }

  @Test
  void givenDtFactor_thenTheStepGrowsAtMostByItPerCycle() {
    TimeStepControl c = control("parthenon/time/dt_factor=1.5");
    SimTime tm = clock(100.0);
    c.setGlobalTimeStep(tm, 0.1);
    tm.advance();
    c.setGlobalTimeStep(tm, 1.0);
    assertEquals(0.1 * 1.5, tm.dt());
  }

  @Test
  void givenDtInit_thenTheFirstStepIsAtMostItAndExactlyItWhenForced() {
    SimTime tm = clock(10.0);
    control("parthenon/time/dt_init=0.01").setGlobalTimeStep(tm, 0.25);
    assertEquals(0.01, tm.dt());
    SimTime forced = clock(10.0);
    control("parthenon/time/dt_init=0.5", "parthenon/time/dt_init_force=true")
        .setGlobalTimeStep(forced, 0.25);
    assertEquals(0.5, forced.dt());
  }

  @Test
  void givenDtForceUserCeilAndFloor_thenTheyWin() {
    SimTime tm = clock(10.0);
    control("parthenon/time/dt_force=0.3").setGlobalTimeStep(tm, 0.001);
    assertEquals(0.3, tm.dt());
    tm = clock(10.0);
    control("parthenon/time/dt_user=0.02").setGlobalTimeStep(tm, 0.25);
    assertEquals(0.02, tm.dt());
    tm = clock(10.0);
    control("parthenon/time/dt_ceil=0.03").setGlobalTimeStep(tm, 0.25);
    assertEquals(0.03, tm.dt());
    tm = clock(10.0);
    control("parthenon/time/dt_floor=0.5").setGlobalTimeStep(tm, 0.25);
    assertEquals(0.5, tm.dt());
  }

  @Test
  void givenAStepPastTlim_thenItEndsExactlyAtTlim() {
    SimTime tm = new SimTime(0.9, 1.0, -1, 0, 1, 0, Double.MAX_VALUE);
    control().setGlobalTimeStep(tm, 0.25);
    assertEquals(1.0 - 0.9, tm.dt());
  }

  @Test
  void givenAStepBelowDtMinTooLong_thenTheRunFailsWithOneLine() {
    TimeStepControl c = control("parthenon/time/dt_min=0.1",
        "parthenon/time/dt_min_cycle_limit=3");
    SimTime tm = clock(100.0);
    c.setGlobalTimeStep(tm, 0.01);
    c.setGlobalTimeStep(tm, 0.01);
    DriverError e = assertThrows(DriverError.class, () -> c.setGlobalTimeStep(tm, 0.01));
    assertTrue(e.getMessage().startsWith("the time step has fallen below the minimum"
        + " (parthenon/time/dt_min = 0.1) for 3 cycles"), e.getMessage());
  }

  @Test
  void givenNoLimitOnTheStepAtAll_thenDtMaxStopsTheRun() {
    SimTime tm = new SimTime(0.0, Double.POSITIVE_INFINITY, -1, 0, 1, 0, Double.MAX_VALUE);
    DriverError e = assertThrows(DriverError.class,
        () -> control().setGlobalTimeStep(tm, Double.MAX_VALUE));
    assertTrue(e.getMessage().contains("dt_max"), e.getMessage());
  }
}
