package org.metope.tasking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Regions run one after another; each region's lists run together. A driver builds one collection
 * per stage (once, reusing it every step) and calls {@link #execute()}.
 *
 * <p>Failure: a task returning {@link TaskStatus#FAIL} stops the collection with a {@link
 * TaskFailureException} naming the task and its list. Stall: when no task of a region makes progress
 * for longer than the stall timeout, a {@link TaskStallException} lists every pending task and what
 * it waits on.
 */
public final class TaskCollection {
  private final List<TaskRegion> regions = new ArrayList<>();
  private long stallNanos = Duration.ofSeconds(60).toNanos();

  /** Adds a region of {@code size} lists after the existing ones. */
  public TaskRegion addRegion(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a region needs at least one list: size=" + size);
    }
    TaskRegion region = new TaskRegion("region" + regions.size(), size);
    regions.add(region);
    return region;
  }

  /** The regions, in execution order. */
  public List<TaskRegion> regions() {
    return Collections.unmodifiableList(regions);
  }

  /** Sets how long a region may go without progress before it is declared stalled (default 60 s). */
  public TaskCollection stallTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("stall timeout must be positive: timeout=" + timeout);
    }
    this.stallNanos = timeout.toNanos();
    return this;
  }

  /** Runs every region in sequence on the calling thread. */
  public void execute() {
    for (int r = 0; r < regions.size(); r++) {
      TaskRegion region = regions.get(r);
      region.reset();
      runLists(region, 0, 1, null);
    }
  }

  /**
   * Runs every region in sequence, each region's lists spread over the pool's threads (list {@code
   * i} on thread {@code i mod threads}; a thread whose lists are complete helps with the others').
   * Results equal those of {@link #execute()} as long as tasks of different lists touch disjoint
   * data, which is the contract of one list per partition.
   */
  public void execute(TaskThreadPool pool) {
    if (pool == null || pool.threads() == 1) {
      execute();
      return;
    }
    for (int r = 0; r < regions.size(); r++) {
      TaskRegion region = regions.get(r);
      region.reset();
      pool.run(region, this);
    }
  }

  /**
   * Round-robin over lists {@code first, first + stride, ...} of the region until the region is
   * complete. Shared by the serial and threaded executions; with a {@code pool}, each pass runs
   * inside its gate as worker {@code first} ({@link TaskThreadPool#runExclusive}), and a worker
   * whose own lists are complete, or made no progress in this pass, passes over the others'
   * incomplete lists too, one pass at a time under the list's claim ({@link TaskList#tryClaim}):
   * with more lists on one thread than on another (7 partitions on 2 threads) the first to finish
   * takes its share of the rest instead of waiting at the end of the region, and a thread whose
   * lists wait for another thread's lists (a boundary message) runs those itself when that thread
   * is not scheduled. The pass returns only when every list of the region is complete. Which
   * thread runs a pass changes no result: the lists of a region touch disjoint data.
   */
  void runLists(TaskRegion region, int first, int stride, TaskThreadPool pool) {
    final int n = region.size();
    int idlePasses = 0;
    while (!region.aborted()) {
      boolean allComplete = true;
      boolean progress = false;
      if (pool != null) {
        pool.beginPass(first);
      }
      try {
        for (int i = first; i < n; i += stride) {
          TaskList list = region.get(i);
          if (!list.isComplete()) {
            int outcome = passOnce(list, pool != null);
            progress |= (outcome & CHANGED) != 0;
            allComplete &= (outcome & COMPLETE) != 0;
          }
        }
        if (pool != null && (allComplete || !progress)) {
          for (int k = 1; k < n; k++) {
            TaskList list = region.get((first + k) % n);
            if ((first + k) % n % stride != first && !list.isComplete()) {
              int outcome = passOnce(list, true);
              progress |= (outcome & CHANGED) != 0;
              allComplete &= (outcome & COMPLETE) != 0;
            }
          }
        }
      } finally {
        if (pool != null) {
          pool.endPass(first);
        }
      }
      if (allComplete) {
        return;
      }
      if (progress) {
        idlePasses = 0;
        region.markProgress(System.nanoTime());
        continue;
      }
      idlePasses++;
      backOff(idlePasses);
      if (System.nanoTime() - region.lastProgressNanos() > stallNanos) {
        StringBuilder report = new StringBuilder();
        report.append("no task made progress for ").append(duration(stallNanos));
        String waiting = region.waiting();
        if (waiting != null) {
          report.append("; waiting: ").append(waiting);
        }
        report.append("; pending tasks:\n");
        region.describePending(report);
        throw new TaskStallException(report.toString().stripTrailing());
      }
    }
  }

  /** {@code N ms}; below a millisecond {@code N us} or {@code N ns} (a deck may say 1e-9 s). */
  private static String duration(long nanos) {
    if (nanos >= 1_000_000) {
      return Duration.ofNanos(nanos).toMillis() + " ms";
    }
    return nanos >= 1_000 ? nanos / 1_000 + " us" : nanos + " ns";
  }

  /** A bit of {@link #passOnce}'s result: the pass changed something. */
  private static final int CHANGED = 1;
  /** A bit of {@link #passOnce}'s result: the list is complete after the pass. */
  private static final int COMPLETE = 2;

  /**
   * One pass over {@code list}, under its claim when {@code claim} (parallel executions); the
   * {@link #CHANGED} and {@link #COMPLETE} bits, neither when another thread holds the list.
   */
  private static int passOnce(TaskList list, boolean claim) {
    if (claim && !list.tryClaim()) {
      return 0;
    }
    try {
      int changed = !list.isComplete() && list.pass() ? CHANGED : 0;
      return changed | (list.isComplete() ? COMPLETE : 0);
    } finally {
      if (claim) {
        list.release();
      }
    }
  }

  /** Spins briefly, then yields, then parks, so waiting lists leave the cores to other ranks. */
  private static void backOff(int idlePasses) {
    if (idlePasses < 64) {
      Thread.onSpinWait();
    } else if (idlePasses < 256) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(20_000L);
    }
  }
}
