package org.metope.bvals.channel;

/**
 * The communication debug switch: system property {@value #PROPERTY}{@code =true}, read once at
 * class initialisation into a {@code static final}, so that the checks it guards are compiled
 * away when it is off.
 *
 * <p>When on, {@link CommBuffer#stale()} fills the staled buffer with NaN, so reading received
 * data after staling it (a task-ordering bug) shows up as NaN ghosts instead of plausible old
 * values. Send and receive counts are kept whether it is on or not (every channel dump shows
 * them).
 */
public final class CommDebug {
  /** The system property that turns debug checks on. */
  public static final String PROPERTY = "metope.comm.debug";

  /** Whether debug checks are on for this JVM. */
  public static final boolean ENABLED = Boolean.getBoolean(PROPERTY);

  private CommDebug() {}
}
