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
      runLists(region);
    }
  }

  /**
   * Runs every region in sequence, each region's lists shared by the pool's threads: a thread
   * takes the next list in round-robin order for one pass ({@link #runShared}), so a thread that
   * starts late, or is descheduled, leaves its share to the others. Results equal those of {@link
   * #execute()} as long as tasks of different lists touch disjoint data, which is the contract of
   * one list per partition.
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

  /** Round-robin over every list of the region on the calling thread until all are complete. */
  private void runLists(TaskRegion region) {
    final int n = region.size();
    int idlePasses = 0;
    while (!region.aborted()) {
      boolean allComplete = true;
      boolean progress = false;
      for (int i = 0; i < n; i++) {
        TaskList list = region.get(i);
        if (!list.isComplete()) {
          progress |= list.pass();
          allComplete &= list.isComplete();
        }
      }
      if (allComplete) {
        return;
      }
      idlePasses = progress ? 0 : idlePasses + 1;
      waitForProgress(region, progress, idlePasses);
    }
  }

  /**
   * Worker {@code worker}'s part of a parallel execution: until every list of the region is
   * complete, it takes the next list of the region's shared round-robin order that no other thread
   * holds, a list it began itself or one not begun first ({@link TaskRegion#claimNext}), and
   * passes over it once. Handing lists out one pass at a
   * time, in one order for all threads, balances the threads whatever else they run (the caller's
   * serial work, the JIT compiler on the same core) and keeps the serial order of the lists where
   * one thread runs alone; a thread whose list waits for another's (a boundary message) goes on
   * to the next and passes over that one itself when its holder is not scheduled. Each sweep of
   * up to {@code n} passes runs inside the pool's gate ({@link TaskThreadPool#runExclusive}).
   * A worker that backs off after a fruitless sweep may find the region closed to it when it
   * returns (the caller completed it meanwhile) and then leaves at once. Which thread runs a pass
   * changes no result: the lists of a region touch disjoint data.
   */
  void runShared(TaskRegion region, int worker, TaskThreadPool pool) {
    final int n = region.size();
    int idleSweeps = 0;
    while (!region.aborted() && !region.allListsComplete()) {
      if (!pool.beginPass(worker)) {
        return;
      }
      boolean progress = false;
      boolean completed = false;
      try {
        for (int k = 0; k < n; k++) {
          TaskList list = region.claimNext(worker);
          if (list == null) {
            break;
          }
          progress |= passClaimed(region, list);
        }
        completed = true;
      } finally {
        pool.endPass(worker, completed);
      }
      if (region.allListsComplete()) {
        return;
      }
      if (progress) {
        idleSweeps = 0;
        region.markProgress(System.nanoTime());
      } else if (pool.idle(worker, ++idleSweeps)) {
        checkStall(region);
      } else {
        return;
      }
    }
  }

  /**
   * One pass over {@code list}, which the calling thread has claimed, then released; whether it
   * changed anything. The pass that completes the list tells the region.
   */
  private static boolean passClaimed(TaskRegion region, TaskList list) {
    try {
      if (list.isComplete()) {
        return false;
      }
      boolean changed = list.pass();
      if (list.isComplete()) {
        region.listCompleted();
      }
      return changed;
    } finally {
      list.release();
    }
  }

  /**
   * After a pass or sweep without completing the region: records progress, or backs off after
   * {@code idle} fruitless ones and declares a stall once no task of the region has made
   * progress for the stall timeout.
   */
  private void waitForProgress(TaskRegion region, boolean progress, int idle) {
    if (progress) {
      region.markProgress(System.nanoTime());
      return;
    }
    backOff(idle);
    checkStall(region);
  }

  /** Declares a stall once no task of {@code region} has made progress for the stall timeout. */
  private void checkStall(TaskRegion region) {
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

  /** {@code N ms}; below a millisecond {@code N us} or {@code N ns} (a deck may say 1e-9 s). */
  private static String duration(long nanos) {
    if (nanos >= 1_000_000) {
      return Duration.ofNanos(nanos).toMillis() + " ms";
    }
    return nanos >= 1_000 ? nanos / 1_000 + " us" : nanos + " ns";
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
