package org.metope.driver;

import org.metope.mesh.DriverError;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;
import org.metope.mesh.Mesh;
import org.metope.comm.Communicator;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskThreadPool;

/**
 * A driver whose step runs the stages of a {@link LowStorageIntegrator}, one {@link
 * TaskCollection} per stage (Parthenon's {@code MultiStageDriver}). An application says what a
 * stage does in {@link #makeTaskCollection}.
 *
 * <p>Parthenon builds the collection of every stage anew in every step; here each stage's
 * collection is built once and executed again every step, so stepping allocates nothing. Tasks
 * must therefore read what changes between steps when they run, not when they are built: the step
 * through {@link LowStorageIntegrator#dt()}, data arrays through the partitions. After a remesh
 * call {@link #invalidateTaskCollections()}.
 */
public abstract class MultiStageDriver extends EvolutionDriver {
  /** The time integrator; its {@code dt} is the step being taken. */
  protected final LowStorageIntegrator integrator;
  private final TaskThreadPool pool;
  private final TaskCollection[] collections;
  /** The stage {@link #step} is running, for its name in an error line. */
  private int runningStage;
  /** "stage 1 of cycle 3", made once and asked only when a stage fails. */
  private final Supplier<String> stageName = () -> "stage " + runningStage + " of cycle "
      + tm.ncycle();
  private final Supplier<String> channelReport = this::diagnostics;
  /** How long a stage may make no progress before it is reported and stopped. */
  private final Duration stallTimeout;
  /**
   * Parthenon waits forever unless {@code recv_bdry_buf_timeout_sec} is set; a step that makes no
   * progress for this long is reported instead.
   */
  private static final Duration DEFAULT_STALL = Communicator.DEFAULT_STALL_TIMEOUT;

  /**
   * A driver integrating with {@code integrator}, running task lists on {@code pool}'s threads
   * (null or one thread: on the calling thread).
   */
  protected MultiStageDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool) {
    super(pin, mesh, options);
    this.integrator = integrator;
    this.pool = pool;
    outputs().useThreads(pool);
    this.collections = new TaskCollection[integrator.nstages() + 1];
    this.stallTimeout = stallTimeout(pin);
    mesh.communicator().setStallTimeout(stallTimeout);
  }

  /**
   * How long an exchange or a collective may wait for other ranks: the deck's {@code
   * <parthenon/time> recv_bdry_buf_timeout_sec} when positive, else {@link
   * Communicator#DEFAULT_STALL_TIMEOUT}. The runner gives it to the communicator before set-up,
   * so that the initial ghost fill obeys it too.
   */
  public static Duration stallTimeout(ParameterInput pin) {
    double timeout = pin.getOrAddReal("parthenon/time", "recv_bdry_buf_timeout_sec", -1.0);
    return timeout > 0 ? Duration.ofNanos((long) (timeout * 1e9)) : DEFAULT_STALL;
  }

  /**
   * What the report of a stalled or aborted step adds after the pending tasks, e.g. every
   * communication channel's state; empty by default.
   */
  protected String stallDiagnostics() {
    return "";
  }

  /**
   * The tasks of stage {@code stage} (1-based): reads the container {@code
   * integrator.stageName(stage - 1)} and writes {@code integrator.stageName(stage)}.
   */
  protected abstract TaskCollection makeTaskCollection(int stage);

  /**
   * Called after stage {@code stage} (1-based) of every cycle completed, e.g. to report what the
   * stage moved between host and device; nothing by default.
   */
  protected void stageFinished(int stage) {}

  /** Forgets the task collections, e.g. after the partitions changed. */
  protected final void invalidateTaskCollections() {
    Arrays.fill(collections, null);
  }

  /** The partitions changed: the collections are built again on the next step. */
  @Override
  protected void meshChanged() {
    invalidateTaskCollections();
  }

  private String diagnostics() {
    String channels = stallDiagnostics();
    return channels.isEmpty() ? "" : "\n" + channels.stripTrailing();
  }

  @Override
  protected void step() {
    integrator.setDt(tm.dt());
    for (int stage = 1; stage <= integrator.nstages(); stage++) {
      if (collections[stage] == null) {
        collections[stage] = makeTaskCollection(stage).stallTimeout(stallTimeout);
      }
      runningStage = stage;
      DriverError.execute(collections[stage], pool, stageName, channelReport);
      stageFinished(stage);
    }
  }
}
