package org.metope.tasking;

import java.util.function.IntConsumer;

/**
 * Independent items spread over a pool's threads: the serial parts of a remesh and of an output
 * (packing block records, evaluating each block's history values) on the task threads that run the
 * stages, so that a rank with two threads does not leave one idle while the other does them.
 */
public final class ParallelItems {
  /** Lists per thread: enough for a thread that finishes early to help with another's. */
  private static final int CHUNKS_PER_THREAD = 4;

  private ParallelItems() {}

  /**
   * Calls {@code body} once for each item {@code 0 .. count - 1}, on {@code pool}'s threads (null
   * or one thread: the calling thread, in order), in contiguous chunks, one list each; returns when
   * every item is done. Items must touch disjoint data (as a region's lists do), so the result does
   * not depend on which thread ran which item or in what order; an exception thrown by an item
   * ends the region and is rethrown here, unwrapped.
   */
  public static void forEach(TaskThreadPool pool, int count, IntConsumer body) {
    if (count <= 0) {
      return;
    }
    if (pool == null || pool.threads() == 1 || count == 1) {
      for (int i = 0; i < count; i++) {
        body.accept(i);
      }
      return;
    }
    int chunks = Math.min(count, pool.threads() * CHUNKS_PER_THREAD);
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(chunks);
    for (int c = 0; c < chunks; c++) {
      int first = (int) ((long) count * c / chunks);
      int end = (int) ((long) count * (c + 1) / chunks);
      region.get(c).addTask(TaskId.NONE, "items " + first + ".." + (end - 1), () -> {
        for (int i = first; i < end; i++) {
          body.accept(i);
        }
        return TaskStatus.COMPLETE;
      });
    }
    try {
      tc.execute(pool);
    } catch (TaskFailureException e) {
      // What an item threw reaches the caller as it would have on the calling thread.
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
