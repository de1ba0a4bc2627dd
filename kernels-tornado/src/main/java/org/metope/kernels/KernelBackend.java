package org.metope.kernels;

import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;
import org.metope.kernels.table.BoundaryTable;

/**
 * Launches the boundary kernels. Every launch covers a whole subset of a {@link BoundaryTable} (by
 * default all of it: every block and field of a partition) in one call; there is no launch per
 * boundary. A subset is a list of boundary indices, {@code subset[0..count)}, like a row of
 * Parthenon's {@code buffer_subsets}.
 *
 * <p>Several task threads may launch on one backend at once (the one-thread JVM backend runs each
 * launch on its caller without a lock; device backends take turns); each launch runs to
 * completion before it returns, and writes the same bits whatever the backend's thread count.
 * Boundaries written by one launch must not
 * overlap unless they write equal values.
 */
public interface KernelBackend extends AutoCloseable {

  /** The backend's name as the deck spells it: {@code jvm} or {@code tornado}. */
  String name();

  /** Host threads a launch uses (1 for a device backend). */
  int threads();

  /**
   * Loads each boundary's box (or the restriction of its fine children) into its buffer slice and
   * sets {@code table.nonzero[b]}; boundaries with {@code table.allocated[b] == 0} get
   * {@code nonzero[b] = 0} and their slice is left alone.
   */
  void load(BoundaryTable table, int[] subset, int count, double[] data, double[] buffers);

  /**
   * Writes each boundary's box from its buffer slice, or with its default value, or not at all, as
   * {@code table.receiveMode[b]} says.
   */
  void unload(BoundaryTable table, int[] subset, int count, double[] data, double[] buffers);

  /**
   * Prolongates the PROLONGATE boundaries of the subset whose field is allocated, and the
   * internal ones ({@link org.metope.kernels.table.BoundaryOp#isInternal}, face, edge and node
   * fields: a launch of their own after the shared one). Device backends prolongate cell rows
   * only; face, edge and node fields across levels run on the JVM backend.
   */
  void prolongate(BoundaryTable table, int[] subset, int count, double[] data);

  /** Restricts the RESTRICT boundaries of the subset whose field is allocated into their boxes. */
  void restrictBlocks(BoundaryTable table, int[] subset, int count, double[] data);

  /** {@link #load} over every boundary of the table. */
  default void load(BoundaryTable table, double[] data, double[] buffers) {
    load(table, table.all, table.size, data, buffers);
  }

  /** {@link #unload} over every boundary of the table. */
  default void unload(BoundaryTable table, double[] data, double[] buffers) {
    unload(table, table.all, table.size, data, buffers);
  }

  /**
   * Called once when a cache is built, with the arenas its launches will use: a device backend
   * builds its execution plans here. The JVM backend needs nothing.
   */
  default void prepare(BoundaryTable table, double[] data, double[] buffers) {}

  /** Forgets whatever {@link #prepare} or earlier launches kept for {@code table}. */
  default void release(BoundaryTable table) {}

  /**
   * Called by a driver after each stage of a cycle: a device backend reports what crossed between
   * host and device during the stage (see {@code DeviceTrace}); the JVM backend does nothing.
   */
  default void endStage(int cycle, int stage) {}

  /**
   * Whether the backend keeps the data arenas on its device between launches ("device
   * resident"): then the stage's physics runs through {@link #stage}, and host code that touches
   * an arena first calls {@link #acquireHost}. False for the JVM backend, whose device is the
   * host.
   */
  default boolean resident() {
    return false;
  }

  /**
   * Makes the host copy of data arena {@code arena} current for reading, or for writing ({@code
   * write}: the device copy becomes stale), until {@link #releaseHost}; a resident backend copies
   * the arena back from its device if the device copy is the current one. Nothing on a backend
   * that is not resident.
   */
  default void acquireHost(double[] arena, boolean write) {}

  /** Ends the calling thread's {@link #acquireHost} of {@code arena}. */
  default void releaseHost(double[] arena) {}

  /** Forgets the device copy of {@code arena} (a remesh replaced it); its host copy must be current. */
  default void releaseArena(double[] arena) {}

  /**
   * Runs {@code launch} on data arena {@code arena} with weights {@code w1}, {@code w2} (a weighted
   * sum's; ignored by other kinds): on the host here, on the device by a resident backend.
   */
  default void stage(StageLaunch launch, double[] arena, double w1, double w2) {
    launch.runOnHost(arena, w1, w2);
  }

  /**
   * Runs the refinement measures {@code launch} over data arena {@code arena} into {@code
   * launch.results}: on the host here; a resident backend runs them on its device copy and sends
   * back only the results.
   */
  default void measure(TagLaunch launch, double[] arena) {
    launch.runOnHost(arena);
  }

  /** Number of launches of {@code kind} so far. */
  long launches(KernelKind kind);

  /** Stops the backend's threads or frees its device resources. */
  @Override
  void close();
}
