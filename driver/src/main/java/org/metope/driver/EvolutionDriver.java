package org.metope.driver;

import org.metope.mesh.DriverError;

import org.metope.mesh.SimTime;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshRefinement;
import org.metope.comm.ReduceOp;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.OutputSignal;
import org.metope.outputs.Outputs;
import org.metope.tasking.Task;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * The time loop of a simulation (Parthenon's {@code EvolutionDriver}): set the first step, write
 * the initial outputs, then cycle by cycle print the status line, take a {@link #step()}, advance
 * the clock, set the next step and write the outputs that are due, until {@code tlim}, {@code
 * nlim} or the wall-time limit; then write the final outputs and print the summary.
 *
 * <p>It reads {@code <parthenon/time>}: {@code start_time}, {@code tlim}, {@code dt}, the step
 * controls of {@link TimeStepControl}, {@code ncycle}, {@code nlim}, {@code ncycle_out} (default
 * 1), {@code ncycle_out_mesh} and {@code perf_cycle_offset} (cycles after which the performance
 * counters restart, so the summary can leave out the JIT's warm-up); and {@code <parthenon/job>}
 * {@code archive_parameters} and {@code run_only_analysis}.
 *
 * <p>The global step is the minimum over every package, partition and rank: each partition's
 * estimate is a regional task ({@link #addEstimateTimestep}) and one list folds them and reduces
 * over the ranks; every rank then applies the same rules to the same number.
 */
public abstract class EvolutionDriver implements Driver {
  private static final String TIME = "parthenon/time";

  /** The deck, with every default the run used recorded. */
  protected final ParameterInput pin;
  /** The mesh being evolved. */
  protected final Mesh mesh;
  /** The clock. */
  protected final SimTime tm;
  private final RunOptions options;
  private final TimeStepControl timeStep;
  private final Outputs outputs;
  // The loop's callbacks, made once so that a cycle hands them on without allocating.
  private final Runnable toHost = this::fieldsToHost;
  private final Runnable beforeOutput = this::userWorkBeforeOutput;
  private final Runnable onMeshChange = this::meshChanged;
  private final DriverReport report;
  private final PrintStream out;
  private final LoopHooks hooks = new LoopHooks();
  private final int perfCycleOffset;
  private double[] partitionDt = new double[0];
  private volatile double allowedDt = Double.MAX_VALUE;
  private boolean wallTimeExpired;
  /**
   * The cycle's one reduction: the time step (a double's MIN, {@link ReduceOp#encode}), whether
   * the wall-time limit passed on any rank, and the refinement votes, at these positions.
   */
  private final long[] cycleValues = new long[4];
  private static final int CYCLE_DT = 0;
  private static final int CYCLE_EXPIRED = 1;
  private static final int CYCLE_VOTES = 2;
  private static final ReduceOp[] CYCLE_OPS = {ReduceOp.MIN, ReduceOp.MAX, ReduceOp.SUM,
    ReduceOp.SUM};

  /**
   * A driver for {@code mesh}, whose fields are initialised; reads the time settings and the
   * output blocks of {@code pin}.
   */
  protected EvolutionDriver(ParameterInput pin, Mesh mesh, RunOptions options) {
    this.pin = pin;
    this.mesh = mesh;
    this.options = options;
    double startTime = pin.getOrAddReal(TIME, "start_time", 0.0);
    boolean tlimGiven = pin.doesParameterExist(TIME, "tlim");
    double tlim = pin.getOrAddRealOrInfinity(TIME, "tlim", Double.POSITIVE_INFINITY);
    double dt = pin.getOrAddReal(TIME, "dt", Double.MAX_VALUE);
    if (!(dt > 0.0)) {
      throw pin.error(TIME, "dt", "a positive time step");
    }
    this.timeStep = new TimeStepControl(pin);
    int ncycle = pin.getOrAddInteger(TIME, "ncycle", 0);
    if (ncycle < 0) {
      throw pin.error(TIME, "ncycle", "a cycle number >= 0");
    }
    int nlim = pin.getOrAddInteger(TIME, "nlim", -1);
    int ncycleOut = pin.getOrAddInteger(TIME, "ncycle_out", 1);
    int ncycleOutMesh = pin.getOrAddInteger(TIME, "ncycle_out_mesh", 0);
    this.tm = new SimTime(startTime, tlim, nlim, ncycle, ncycleOut, ncycleOutMesh, dt);
    this.outputs = new Outputs(mesh, pin, tm, options.outputDirectory());
    outputs.renameInBackground();
    this.perfCycleOffset = pin.getOrAddInteger(TIME, "perf_cycle_offset", 0);
    pin.declareKnown("parthenon/job", "run_only_analysis", "archive_parameters");
    checkLimits(pin, startTime, tlimGiven ? tlim : Double.NaN, nlim, options);
    this.report = new DriverReport(mesh, tm, isRankZero() ? options.out() : null);
    this.out = isRankZero() ? options.out() : new PrintStream(OutputStream.nullOutputStream());
  }

  /**
   * Refuses a run that would end at once by mistake or never: {@code tlim} before {@code
   * start_time}, or neither a finite {@code tlim}, a cycle limit {@code nlim >= 0} nor a wall-time
   * limit (Parthenon runs such a deck forever; a misspelt {@code tlim} is the usual cause).
   *
   * @param tlim the deck's end time, or NaN when the deck has none
   */
  private static void checkLimits(ParameterInput pin, double startTime, double tlim, int nlim,
      RunOptions options) {
    if (tlim < startTime) {
      throw pin.error(TIME, "tlim", "an end time >= " + TIME + "/start_time = " + startTime);
    }
    boolean unlimited = !(tlim < Double.POSITIVE_INFINITY) && nlim < 0
        && !options.hasWallTimeLimit();
    if (unlimited && !Double.isNaN(tlim)) {
      throw pin.error(TIME, "tlim", "a finite end time, since " + TIME + "/nlim does not limit"
          + " the run");
    }
    if (unlimited) {
      throw InputError.at(pin.deckName(), "neither " + TIME + "/tlim nor "
          + TIME + "/nlim is set, so the run would never end" + misspeltLimit(pin),
          "tlim (the end time) or nlim (a number of cycles) in <" + TIME + ">, or a wall-time"
          + " limit -t");
    }
  }

  /** A hint naming an unread key of the time block that looks like tlim or nlim, or "". */
  private static String misspeltLimit(ParameterInput pin) {
    for (String path : pin.unusedParameters()) {
      String key = path.substring(path.lastIndexOf('/') + 1);
      if (path.startsWith(TIME + "/") && DeckCheck.closest(key, List.of("tlim", "nlim")) != null) {
        return " (is " + path + " a misspelling of " + DeckCheck.closest(key,
            List.of("tlim", "nlim")) + "?)";
      }
    }
    return "";
  }

  /** The clock. */
  public SimTime time() {
    return tm;
  }

  /** The application's work around every step; set it before {@link #execute}. */
  public final LoopHooks hooks() {
    return hooks;
  }

  /** The deck's outputs (a multistage driver hands them its task threads). */
  final Outputs outputs() {
    return outputs;
  }

  /** Warnings about the deck's output blocks, for the user. */
  public List<String> outputWarnings() {
    return outputs.warnings();
  }

  /** The warnings about the deck's output blocks. */
  @Override
  public List<String> warnings() {
    return outputWarnings();
  }

  /** The mesh being evolved. */
  public final Mesh mesh() {
    return mesh;
  }

  private boolean isRankZero() {
    return mesh.myRank() == 0;
  }

  /**
   * Runs the simulation to its end.
   *
   * @return {@link DriverStatus#COMPLETE} when a limit was reached, {@link DriverStatus#TIMEOUT}
   *     when the wall-time limit stopped it
   * @throws org.metope.tasking.TaskFailureException when a step fails
   */
  @Override
  public DriverStatus execute() {
    DriverStatus status;
    try {
      status = loop();
    } catch (RuntimeException | Error e) {
      outputs.awaitWritesAfter(e);
      throw e;
    }
    outputs.awaitWrites();
    printSummary(status);
    return status;
  }

  /** {@link #execute}'s work up to the final outputs. */
  private DriverStatus loop() {
    report.printSetup();
    estimateInitialTimestep();
    if (!options.restarted()) {
      timeStep.setGlobalTimeStep(tm, takeAllowedDt());
    } else {
      // A restart takes the step its file recorded (a new estimate could differ: dt_factor),
      // unless that is larger than the packages allow.
      double recorded = tm.dt();
      if (timeStep.setResumedTimeStep(tm, takeAllowedDt())) {
        out.println("warning: the restart file's time step dt = " + recorded + " is larger than"
            + " the packages allow; the first step is " + tm.dt());
      }
    }
    userWorkBeforeLoop();
    OutputSignal signal = pin.getOrAddBoolean("parthenon/job", "run_only_analysis", false)
        ? OutputSignal.ANALYSIS : OutputSignal.NONE;
    outputs.makeOutputs(mesh, tm, signal, toHost, beforeOutput);
    report.resetBlockCycles();
    archiveParameters();
    if (mesh.refinement() != null) {
      mesh.refinement().startLoop();
    }
    while (tm.keepGoing() && signal != OutputSignal.ANALYSIS) {
      report.cycleDiagnostics();
      boolean hooked = hooks.touchFields(mesh);
      if (hooked) {
        acquireFieldsOnHost(true);
      }
      preStepUserWorkInLoop();
      hooks.beforeStep(mesh, pin, tm);
      step();
      if (hooked) {
        acquireFieldsOnHost(true);
      }
      postStepUserWorkInLoop();
      hooks.afterStep(mesh, pin, tm);
      tm.advance();
      report.countCycle();
      reduceCycle();
      loadBalancingAndAdaptiveMeshRefinement();
      timeStep.setGlobalTimeStep(tm, takeAllowedDt());
      signal = checkSignals();
      if (signal == OutputSignal.FINAL) {
        break;
      }
      if (tm.keepGoing()) {
        outputs.makeOutputs(mesh, tm, signal, toHost, beforeOutput);
      }
      if (tm.ncycle() == perfCycleOffset) {
        report.resetCounters();
      }
    }
    DriverStatus status = tm.keepGoing() ? DriverStatus.TIMEOUT : DriverStatus.COMPLETE;
    userWorkAfterLoop(status);
    if (signal != OutputSignal.ANALYSIS) {
      outputs.makeOutputs(mesh, tm, OutputSignal.FINAL, toHost, beforeOutput);
    }
    return status;
  }

  /** The closing lines: the report's, then how the HDF5 files of several ranks were written. */
  private void printSummary(DriverStatus status) {
    report.printSummary(status, wallTimeExpired);
    String writes = outputs.sharedWriteSummary(mesh.communicator().size());
    if (writes != null) {
      out.println(writes);
    }
  }

  /**
   * After a step on an adaptive mesh: tags gathered, forest updated, and if it changed a remesh
   * ({@link MeshRefinement}), then {@link #meshChanged()} and a new time step estimate on the
   * new blocks (Parthenon's {@code InitializeBlockTimeSteps}); timed for the status line.
   */
  private void loadBalancingAndAdaptiveMeshRefinement() {
    MeshRefinement amr = mesh.refinement();
    if (amr == null) {
      return;
    }
    long start = System.nanoTime();
    // A remesh reads the fields (to pack moving blocks) before meshChanged, so they come to the
    // host once the forest changed, and only then; what it writes goes to arenas a resident
    // backend has forgotten by then (FluxDriver.meshChanged).
    if (amr.loadBalancingAndAdaptiveMeshRefinement(cycleValues[CYCLE_VOTES],
        cycleValues[CYCLE_VOTES + 1], toHost, onMeshChange)) {
      estimateInitialTimestep();
    }
    report.addAmrTime(System.nanoTime() - start);
  }

  /**
   * Called during a remesh, before the blocks and partitions are replaced: forget what was built
   * on the old partitions (task lists), which also lets their storage be freed.
   */
  protected void meshChanged() {}

  /**
   * Makes the host copy of the fields current before host code between steps uses them (outputs,
   * remesh, user work and loop hooks); {@code write}: that code may change them, so a device copy
   * becomes stale. Nothing here: fields live on the host unless a subclass runs its stages on a
   * device-resident backend.
   */
  protected void acquireFieldsOnHost(boolean write) {}

  private void fieldsToHost() {
    acquireFieldsOnHost(false);
  }

  /** Takes one step of {@code tm.dt()}; the clock advances afterwards. */
  protected abstract void step();

  /** Application work before the loop, once the first step is set ({@code UserWorkBeforeLoop}). */
  protected void userWorkBeforeLoop() {}

  /** A subclass's work before each step, before the {@link #hooks()}. */
  protected void preStepUserWorkInLoop() {}

  /** A subclass's work after each step, before the {@link #hooks()}' and the clock's advance. */
  protected void postStepUserWorkInLoop() {}

  /** Application work after the loop, before the final outputs. */
  protected void userWorkAfterLoop(DriverStatus status) {}

  /** Application work before outputs other than history are written. */
  protected void userWorkBeforeOutput() {}

  // ---- the global time step -------------------------------------------------------------

  /** The smallest step the packages allow on {@code base} now, over every rank. */
  private void estimateInitialTimestep() {
    double local = Double.MAX_VALUE;
    for (MeshData md : mesh.meshData("base")) {
      local = Math.min(local, mesh.packages().estimateTimestep(md));
    }
    allowedDt = mesh.communicator().allreduce(local, ReduceOp.MIN);
  }

  private double takeAllowedDt() {
    double dt = allowedDt;
    allowedDt = Double.MAX_VALUE;
    return dt;
  }

  /**
   * The reductions of a cycle over the ranks as one collective, after the step: the time step
   * the step's estimate allows (this rank's minimum over its partitions until now), whether the
   * wall-time limit has passed on any rank, and the blocks that ask to refine and derefine.
   */
  private void reduceCycle() {
    cycleValues[CYCLE_DT] = ReduceOp.MIN.encode(allowedDt);
    cycleValues[CYCLE_EXPIRED] = options.hasWallTimeLimit()
        && System.nanoTime() - options.wallTimeDeadlineNanos() >= 0 ? 1 : 0;
    cycleValues[CYCLE_VOTES] = 0;
    cycleValues[CYCLE_VOTES + 1] = 0;
    if (mesh.refinement() != null) {
      mesh.refinement().localVotes(cycleValues, CYCLE_VOTES);
    }
    mesh.communicator().allreduce(cycleValues, CYCLE_OPS);
    allowedDt = ReduceOp.decode(cycleValues[CYCLE_DT]);
  }

  /**
   * Adds the time step estimate of partition {@code md} to {@code list}: a regional task that
   * records every package's estimate, and in the list of partition 0 a task after it that takes
   * the minimum over the partitions (the minimum over the ranks is taken after the step, in the
   * cycle's one reduction). Every list of the region must call this at the same point, once per
   * stage that estimates.
   *
   * @param partitions the number of partitions (lists) in the region
   * @return the estimate task
   */
  protected final TaskId addEstimateTimestep(TaskId dependency, TaskList list, MeshData md,
      int partitions) {
    return addEstimateTimestep(dependency, list, md, partitions, UnaryOperator.identity());
  }

  /**
   * As {@link #addEstimateTimestep(TaskId, TaskList, MeshData, int)}, with the estimate's work
   * wrapped by {@code around} (a resident backend holds the host copy for the whole read).
   */
  protected final TaskId addEstimateTimestep(TaskId dependency, TaskList list, MeshData md,
      int partitions, UnaryOperator<Task> around) {
    return addEstimateTimestep(dependency, list, md, partitions,
        () -> mesh.packages().estimateTimestep(md), around);
  }

  /**
   * As {@link #addEstimateTimestep(TaskId, TaskList, MeshData, int)}, with the partition's
   * estimate computed by {@code estimate} instead of the packages on the host (a resident backend
   * runs it on its device).
   */
  protected final TaskId addEstimateTimestep(TaskId dependency, TaskList list, MeshData md,
      int partitions, DoubleSupplier estimate) {
    return addEstimateTimestep(dependency, list, md, partitions, estimate,
        UnaryOperator.identity());
  }

  private TaskId addEstimateTimestep(TaskId dependency, TaskList list, MeshData md,
      int partitions, DoubleSupplier partitionEstimate, UnaryOperator<Task> around) {
    if (partitionDt.length != partitions) {
      partitionDt = new double[partitions];
    }
    final int p = md.partition();
    TaskId estimate = list.addRegionalTask(dependency, "EstimateTimestep", around.apply(() -> {
      partitionDt[p] = partitionEstimate.getAsDouble();
      return TaskStatus.COMPLETE;
    }));
    if (p == 0) {
      list.addTask(estimate, "ReduceTimestep", this::reduceTimestep);
    }
    return estimate;
  }

  private TaskStatus reduceTimestep() {
    double local = Double.MAX_VALUE;
    for (double dt : partitionDt) {
      local = Math.min(local, dt);
    }
    allowedDt = local;
    return TaskStatus.COMPLETE;
  }

  // ---- signals and archives -------------------------------------------------------------

  /**
   * {@link OutputSignal#FINAL} once the wall-time limit has passed on any rank (as the cycle's
   * reduction found).
   */
  private OutputSignal checkSignals() {
    if (!options.hasWallTimeLimit()) {
      return OutputSignal.NONE;
    }
    if (cycleValues[CYCLE_EXPIRED] != 0) {
      wallTimeExpired = true;
      return OutputSignal.FINAL;
    }
    return OutputSignal.NONE;
  }

  /** {@code <parthenon/job> archive_parameters}: writes the effective deck next to the outputs. */
  private void archiveParameters() {
    String setting = pin.getOrAddString("parthenon/job", "archive_parameters", "false",
        List.of("true", "false", "timestamp"));
    if (setting.equals("false") || !isRankZero()) {
      return;
    }
    String name = "parthinput.archive";
    if (setting.equals("timestamp")) {
      name += "." + ZonedDateTime.now(ZoneOffset.UTC)
          .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'"));
    }
    Path file = options.outputDirectory().resolve(name);
    try {
      pin.saveEffectiveDeck(file);
    } catch (IOException e) {
      throw new DriverError("cannot write the parameter archive " + file + " (" + e + ")");
    }
  }

  /** Whether the run resumes from a restart file. */
  public final boolean isRestart() {
    return options.restarted();
  }

  /** Where output files go. */
  public final Path outputDirectory() {
    return options.outputDirectory();
  }

  /** Where rank 0 prints; other ranks get a stream that discards. */
  public final PrintStream out() {
    return out;
  }
}
