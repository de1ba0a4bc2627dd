package org.metope.mesh;

/**
 * Where a simulation stands in time (Parthenon's {@code SimTime}): the current time and step, the
 * limits that end the run, and the cadence of the status line.
 */
public final class SimTime {
  private final double startTime;
  private final double tlim;
  private final int nlim;
  private final int ncycleOut;
  private final int ncycleOutMesh;
  private final boolean timeLoop;
  private double time;
  private double dt;
  private int ncycle;

  /**
   * A clock at {@code startTime} and cycle {@code ncycle}.
   *
   * @param startTime the time the run starts at
   * @param tlim the run stops once the time reaches it
   * @param nlim the run stops after this cycle; negative for no limit
   * @param ncycle the cycle the run starts at
   * @param ncycleOut a status line every this many cycles; 0 for none
   * @param ncycleOutMesh mesh structure output cadence (negative: after each remesh; 0: never)
   * @param dt the time step before the first estimate ({@code Double.MAX_VALUE} when unset)
   */
  public SimTime(double startTime, double tlim, int nlim, int ncycle, int ncycleOut,
      int ncycleOutMesh, double dt) {
    this(startTime, tlim, nlim, ncycle, ncycleOut, ncycleOutMesh, dt, true);
  }

  private SimTime(double startTime, double tlim, int nlim, int ncycle, int ncycleOut,
      int ncycleOutMesh, double dt, boolean timeLoop) {
    this.timeLoop = timeLoop;
    this.startTime = startTime;
    this.time = startTime;
    this.tlim = tlim;
    this.nlim = nlim;
    this.ncycle = ncycle;
    this.ncycleOut = ncycleOut;
    this.ncycleOutMesh = ncycleOutMesh;
    this.dt = dt;
  }

  /**
   * A clock standing at {@code time}, cycle 0, with no limits: what a driver without a time loop
   * (a solve, a check) hands to the outputs, which then write every output once per call.
   */
  public static SimTime at(double time) {
    return new SimTime(time, Double.POSITIVE_INFINITY, -1, 0, 0, 0, Double.MAX_VALUE, false);
  }

  /**
   * Whether a time loop runs this clock: false for {@link #at}'s, for which HDF5 outputs write no
   * {@code NCycle}, {@code Time} and {@code dt}, as Parthenon's do for a driver without a {@code
   * SimTime}.
   */
  public boolean isTimeLoop() {
    return timeLoop;
  }

  /** Whether another cycle is due: time below {@code tlim} and cycles below {@code nlim}. */
  public boolean keepGoing() {
    return time < tlim && (nlim < 0 || ncycle < nlim);
  }

  /** Moves the clock past the step just taken: one more cycle, time advanced by {@code dt}. */
  public void advance() {
    ncycle++;
    time += dt;
  }

  /** The time the run started at. */
  public double startTime() {
    return startTime;
  }

  /** The current time. */
  public double time() {
    return time;
  }

  /** The time step of the next cycle. */
  public double dt() {
    return dt;
  }

  /** Sets the time step of the next cycle. */
  public void setDt(double dt) {
    this.dt = dt;
  }

  /** The number of cycles taken. */
  public int ncycle() {
    return ncycle;
  }

  /** The time limit. */
  public double tlim() {
    return tlim;
  }

  /** The cycle limit, negative for none. */
  public int nlim() {
    return nlim;
  }

  /** Cycles between status lines; 0 for none. */
  public int ncycleOut() {
    return ncycleOut;
  }

  /** Cycles between mesh structure outputs (negative: after each remesh; 0: never). */
  public int ncycleOutMesh() {
    return ncycleOutMesh;
  }
}
