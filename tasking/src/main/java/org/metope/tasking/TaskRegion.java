package org.metope.tasking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Several {@link TaskList}s run together, typically one per mesh partition. The lists advance
 * round-robin, one pass each in turn, so a list waiting on a message lets the others compute.
 *
 * <p>A regional task ({@link TaskList#addRegionalTask}) counts as complete only once it has
 * completed in every list of the region, which is what global reductions need: each list writes its
 * partial result in its regional task, and the task depending on it sees all of them. Inside an
 * iterative group ({@link IterativeTasks#addRegionalTask}) the same holds per iteration.
 */
public final class TaskRegion {
  private final List<TaskList> lists = new ArrayList<>();
  private AtomicIntegerArray regionalDone = new AtomicIntegerArray(0);
  /** Time of the last progress by any list; shared by the threads of a parallel execution. */
  private volatile long lastProgressNanos;
  /** Set when one thread of a parallel execution failed, so the others stop. */
  private volatile boolean aborted;
  /** The round-robin turn of a parallel execution: list {@code turn mod size} is next. */
  private final AtomicInteger turn = new AtomicInteger();
  /** How many lists are complete in a parallel execution. */
  private final AtomicInteger completeLists = new AtomicInteger();

  /** Creates a region of {@code size} empty lists named {@code prefix[i]}. */
  TaskRegion(String prefix, int size) {
    for (int i = 0; i < size; i++) {
      TaskList list = new TaskList(prefix + "[" + i + "]");
      list.attach(this);
      lists.add(list);
    }
  }

  /** The list at {@code index}. */
  public TaskList get(int index) {
    return lists.get(index);
  }

  /** Number of lists. */
  public int size() {
    return lists.size();
  }

  /** The lists, in order. */
  public List<TaskList> lists() {
    return Collections.unmodifiableList(lists);
  }

  /**
   * Records that regional task {@code t} completed in one list for the {@code n}-th time in this
   * execution; true once it has completed {@code n} times in every list. The count only grows
   * during an execution, so a list that has gone on to iteration {@code n + 1} of an iterative
   * group cannot release a list still waiting for iteration {@code n}'s release, nor hold it.
   */
  boolean completeLocally(int t, int n) {
    return regionalDone.incrementAndGet(t) >= (long) lists.size() * n;
  }

  /** Whether regional task {@code t} has completed {@code n} times in every list. */
  boolean isReleased(int t, int n) {
    return regionalDone.get(t) >= (long) lists.size() * n;
  }

  /**
   * In a parallel execution, claims ({@link TaskList#tryClaim}) for worker {@code worker} and
   * returns the next list of the round-robin order the threads share that is neither complete nor
   * held by another thread, preferring one that no thread has passed over yet or that this worker
   * passed over last, so that a partition's later passes find its data in the cache of the core
   * that began it; any other list only when there is none of those. Null when no list is free.
   */
  TaskList claimNext(int worker) {
    final int n = lists.size();
    int start = (turn.getAndIncrement() & Integer.MAX_VALUE) % n;
    for (int round = 0; round < 2; round++) {
      for (int k = 0; k < n; k++) {
        int i = start + k < n ? start + k : start + k - n;
        TaskList list = lists.get(i);
        if (list.isComplete() || list.isClaimed()
            || round == 0 && list.lastWorker() != worker && list.lastWorker() >= 0) {
          continue;
        }
        if (list.tryClaim()) {
          if (k > 0) {
            turn.addAndGet(k);
          }
          list.passedBy(worker);
          return list;
        }
      }
    }
    return null;
  }

  /** Counts a list that became complete in a parallel execution. */
  void listCompleted() {
    completeLists.incrementAndGet();
  }

  /** Whether every list is complete (parallel executions). */
  boolean allListsComplete() {
    return completeLists.get() == lists.size();
  }

  void markProgress(long now) {
    lastProgressNanos = now;
  }

  long lastProgressNanos() {
    return lastProgressNanos;
  }

  void abort() {
    aborted = true;
  }

  boolean aborted() {
    return aborted;
  }

  void reset() {
    aborted = false;
    lastProgressNanos = System.nanoTime();
    int max = 0;
    int empty = 0;
    int[] reference = null;
    for (int l = 0; l < lists.size(); l++) {
      TaskList list = lists.get(l);
      int[] regional = list.regionalIndices();
      if (reference == null) {
        reference = regional;
      } else if (!Arrays.equals(reference, regional)) {
        throw new IllegalStateException(
            "lists of one region must declare the same regional tasks: list '"
                + lists.get(0).name() + "' has " + Arrays.toString(reference) + ", list '"
                + list.name() + "' has " + Arrays.toString(regional));
      }
      max = Math.max(max, list.size());
      list.reset();
      if (list.isComplete()) {
        empty++;
      }
    }
    turn.set(0);
    completeLists.set(empty);
    if (regionalDone.length() != max) {
      regionalDone = new AtomicIntegerArray(max);
    } else {
      for (int i = 0; i < max; i++) {
        regionalDone.set(i, 0);
      }
    }
  }

  /**
   * The first task of the region that waits on something outside it ({@link
   * TaskList#firstWaiting}), and how many other lists have one; null when none does.
   */
  String waiting() {
    String first = null;
    int more = 0;
    for (TaskList list : lists) {
      String w = list.firstWaiting();
      if (w != null && first == null) {
        first = w;
      } else if (w != null) {
        more++;
      }
    }
    if (first == null) {
      return null;
    }
    return first + ", which returned INCOMPLETE" + (more == 0 ? ""
        : " (" + more + (more == 1 ? " other list waits" : " other lists wait") + " too)");
  }

  /** Appends every pending task of every list. */
  void describePending(StringBuilder out) {
    for (TaskList list : lists) {
      list.describePending(out);
    }
  }
}
