package org.metope.outputs;

import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.tasking.TaskThreadPool;

/**
 * One output of a run (Parthenon's {@code OutputType}): it decides nothing about timing, which
 * {@link Outputs} does, and writes one file or record when asked.
 */
public interface OutputType {
  /** The settings it was built from. */
  OutputParameters parameters();

  /** The time at or after which the next regular output is due. */
  double nextTime();

  /** Whether the output's cycle cadence ({@code dn}) makes it due at cycle {@code ncycle}. */
  default boolean dueByCycle(int ncycle) {
    return false;
  }

  /**
   * Lets the output use {@code pool}'s threads for per-partition work (null: the calling thread
   * only); outputs that have none ignore it.
   */
  default void useThreads(TaskThreadPool pool) {}

  /**
   * Writes this output for the current state and advances its counters ({@code file_number},
   * {@code next_time}, also recorded in the deck). Collective over the mesh's ranks.
   */
  void write(Mesh mesh, SimTime tm, OutputSignal signal);
}
