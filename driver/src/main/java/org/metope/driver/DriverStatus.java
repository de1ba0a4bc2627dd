package org.metope.driver;

/** How a run ended (Parthenon's {@code DriverStatus}). */
public enum DriverStatus {
  /** The time or cycle limit was reached. */
  COMPLETE,
  /** The run stopped early (wall-time limit) and can be continued from a restart. */
  TIMEOUT,
  /** A step failed. */
  FAILED
}
