package org.metope.tasking;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An ordered set of tasks with dependencies, typically all the work of one stage on one mesh
 * partition.
 *
 * <p>Each pass over the list calls, in insertion order, every task that is not yet complete and
 * whose dependencies are complete. A task completed early in a pass may enable later tasks in the
 * same pass. A task returning {@link TaskStatus#INCOMPLETE} is left for a later pass and never
 * blocks independent tasks behind it.
 *
 * <p>A list is built once and can be executed many times: every execution starts from a reset that
 * clears its state without allocating.
 */
public final class TaskList implements TaskAdder {
  private static final byte PENDING = 0;
  /** A regional task that completed here but not yet in every list of its region. */
  private static final byte REGIONAL_WAIT = 1;
  private static final byte COMPLETE = 2;

  private final String name;
  private final List<Entry> entries = new ArrayList<>();
  private final List<IterativeTasks> groups = new ArrayList<>();
  private byte[] state = new byte[0];
  private TaskStatus[] lastResult = new TaskStatus[0];
  /**
   * Per task, how often it has completed in this execution: a regional task inside an iterative
   * group completes once per iteration, and its region releases it for iteration {@code n} once
   * every list has completed it {@code n} times.
   */
  private int[] completions = new int[0];
  private int remaining;
  /** Held by the thread passing over this list in a parallel execution (see {@link #tryClaim}). */
  private final AtomicBoolean claimed = new AtomicBoolean();
  /** The worker that last claimed the list in this execution, -1 before any. */
  private volatile int lastWorker = -1;
  private TaskRegion region;
  /** Positions of the regional tasks, computed once per change of the list. */
  private int[] regional;

  /** One added task; immutable once added. */
  private record Entry(String name, Task body, int[] dependencies, boolean regional, int group) {}

  /** Creates an empty list; {@code name} appears in every error about its tasks. */
  public TaskList(String name) {
    this.name = name;
  }

  /** The name given at construction. */
  public String name() {
    return name;
  }

  /** Adds a task that runs once every task in {@code dependency} is complete. */
  @Override
  public TaskId addTask(TaskId dependency, String taskName, Task task) {
    return add(dependency, taskName, task, false, -1);
  }

  /** Adds a task with a generated name ({@code task<k>}); prefer the named form for diagnostics. */
  public TaskId addTask(TaskId dependency, Task task) {
    return addTask(dependency, "task" + entries.size(), task);
  }

  /**
   * Adds a regional task: its dependents run only once it has completed in every list of the
   * region. Every list of a region must add the same regional tasks at the same positions, which
   * lists built by the same code do.
   */
  @Override
  public TaskId addRegionalTask(TaskId dependency, String taskName, Task task) {
    return add(dependency, taskName, task, true, -1);
  }

  /**
   * Starts an iterative group: tasks added through the returned handle repeat until its completion
   * task returns {@link TaskStatus#COMPLETE}. Tasks outside the group that need its result depend
   * on the completion task's id.
   */
  public IterativeTasks addIteration(String label) {
    IterativeTasks group = new IterativeTasks(this, groups.size(), label);
    groups.add(group);
    return group;
  }

  /** Number of tasks added. */
  public int size() {
    return entries.size();
  }

  TaskId add(TaskId dependency, String taskName, Task task, boolean regional, int group) {
    if (task == null || taskName == null) {
      throw new IllegalArgumentException("task and name must be non-null: list=" + name);
    }
    if (!dependency.isEmpty() && dependency.owner() != this) {
      throw new IllegalArgumentException(
          "dependency of task '" + taskName + "' belongs to list '" + dependency.owner().name()
              + "', not to list '" + name + "'");
    }
    int index = entries.size();
    entries.add(new Entry(taskName, task, dependency.indices().clone(), regional, group));
    this.regional = null;
    return TaskId.single(this, index);
  }

  void attach(TaskRegion owner) {
    if (region != null && region != owner) {
      throw new IllegalStateException("list '" + name + "' already belongs to another region");
    }
    region = owner;
  }

  /** Regional task positions, for the region's consistency check; allocates only after a change. */
  int[] regionalIndices() {
    if (regional == null) {
      regional = findRegional();
    }
    return regional;
  }

  private int[] findRegional() {
    int[] out = new int[entries.size()];
    int n = 0;
    for (int t = 0; t < entries.size(); t++) {
      if (entries.get(t).regional) {
        out[n++] = t;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** Clears all state before an execution; allocates only when tasks were added since the last. */
  void reset() {
    int n = entries.size();
    if (state.length != n) {
      state = new byte[n];
      lastResult = new TaskStatus[n];
      completions = new int[n];
    } else {
      java.util.Arrays.fill(state, PENDING);
      java.util.Arrays.fill(lastResult, null);
      java.util.Arrays.fill(completions, 0);
    }
    for (int g = 0; g < groups.size(); g++) {
      groups.get(g).reset();
    }
    remaining = n;
    lastWorker = -1;
  }

  boolean isComplete() {
    return remaining == 0;
  }

  /**
   * In a parallel execution, takes the list for one pass by the calling thread; false while
   * another thread holds it. The claim and {@link #release} order one thread's pass before the
   * next thread's, so a list's tasks run one at a time and see each other's writes, whichever
   * thread runs them.
   */
  boolean tryClaim() {
    return claimed.compareAndSet(false, true);
  }

  /** The worker that last claimed the list in this execution, -1 before any. */
  int lastWorker() {
    return lastWorker;
  }

  /** Records that {@code worker} claimed the list. */
  void passedBy(int worker) {
    lastWorker = worker;
  }

  /** Whether a thread holds the list for a pass (a hint: the next {@link #tryClaim} decides). */
  boolean isClaimed() {
    return claimed.get();
  }

  /** Ends the pass begun by a successful {@link #tryClaim}. */
  void release() {
    claimed.set(false);
  }

  /**
   * One pass over the list.
   *
   * @return whether anything changed (a task completed, a regional task was released, or an
   *     iterative group started a new iteration)
   */
  boolean pass() {
    boolean progress = false;
    final int n = entries.size();
    for (int t = 0; t < n; t++) {
      byte s = state[t];
      if (s == COMPLETE) {
        continue;
      }
      Entry e = entries.get(t);
      if (s == REGIONAL_WAIT) {
        if (region.isReleased(t, completions[t])) {
          markComplete(t);
          progress = true;
        }
        continue;
      }
      if (!dependenciesComplete(e.dependencies)) {
        continue;
      }
      TaskStatus result = runOne(t, e);
      lastResult[t] = result;
      switch (result) {
        case COMPLETE -> {
          completions[t]++;
          if (e.regional && region != null && !region.completeLocally(t, completions[t])) {
            state[t] = REGIONAL_WAIT;
          } else {
            markComplete(t);
          }
          progress = true;
        }
        case INCOMPLETE -> {}
        case ITERATE -> {
          if (handleIterate(t, e)) {
            completions[t]++;
            markComplete(t);
          }
          progress = true;
        }
        case FAIL ->
            throw new TaskFailureException(
                "task '" + e.name + "' in list '" + name + "' returned FAIL", null);
      }
    }
    return progress;
  }

  private TaskStatus runOne(int t, Entry e) {
    if (e.group >= 0) {
      IterativeTasks group = groups.get(e.group);
      if (group.isCompletionTask(t) && !group.checkDue()) {
        return TaskStatus.ITERATE;
      }
    }
    TaskStatus result;
    try {
      result = e.body.run();
    } catch (TaskFailureException | TaskStallException ex) {
      throw ex;
    } catch (RuntimeException | Error ex) {
      throw new TaskFailureException(
          "task '" + e.name + "' in list '" + name + "' threw " + ex, ex);
    }
    if (result == null) {
      throw new TaskFailureException(
          "task '" + e.name + "' in list '" + name + "' returned null", null);
    }
    return result;
  }

  /**
   * Starts the next iteration of the group whose completion task {@code t} returned ITERATE;
   * true when instead the group ends at its iteration limit ({@link IterativeTasks.AtLimit#REPORT}).
   */
  private boolean handleIterate(int t, Entry e) {
    IterativeTasks group = e.group >= 0 ? groups.get(e.group) : null;
    if (group == null || !group.isCompletionTask(t)) {
      throw new TaskFailureException(
          "task '" + e.name + "' in list '" + name
              + "' returned ITERATE but is not the completion task of an iterative group",
          null);
    }
    if (!group.startNextIteration()) {
      if (group.endsAtLimit()) {
        return true;
      }
      throw new TaskFailureException(
          "iterative group '" + group.label() + "' in list '" + name
              + "' did not converge within max_iterations=" + group.maxIterations(),
          null);
    }
    for (int member : group.members()) {
      if (state[member] == COMPLETE) {
        state[member] = PENDING;
        remaining++;
      }
    }
    return false;
  }

  private void markComplete(int t) {
    state[t] = COMPLETE;
    remaining--;
  }

  private boolean dependenciesComplete(int[] dependencies) {
    for (int d : dependencies) {
      if (state[d] != COMPLETE) {
        return false;
      }
    }
    return true;
  }

  /** Appends one line per pending task saying what it waits on. */
  void describePending(StringBuilder out) {
    for (int t = 0; t < entries.size(); t++) {
      if (state[t] == COMPLETE) {
        continue;
      }
      Entry e = entries.get(t);
      out.append("  list '").append(name).append("' task '").append(e.name).append("': ");
      if (state[t] == REGIONAL_WAIT) {
        out.append("regional, completed here, waiting for the other lists of its region");
      } else if (!dependenciesComplete(e.dependencies)) {
        out.append("waiting on ");
        String sep = "";
        for (int d : e.dependencies) {
          if (state[d] != COMPLETE) {
            out.append(sep).append('\'').append(entries.get(d).name).append('\'');
            sep = ", ";
          }
        }
      } else if (lastResult[t] == TaskStatus.INCOMPLETE) {
        out.append("ready, last returned INCOMPLETE");
      } else {
        out.append("ready, not yet run");
      }
      out.append('\n');
    }
  }

  /**
   * The first task of this list that waits on something outside the task system (its
   * dependencies are done and it last returned INCOMPLETE: a receive, a collective), as {@code
   * task 'NAME' in list 'LIST'}; null when none does.
   */
  String firstWaiting() {
    for (int t = 0; t < entries.size(); t++) {
      if (state[t] != COMPLETE && state[t] != REGIONAL_WAIT
          && lastResult[t] == TaskStatus.INCOMPLETE
          && dependenciesComplete(entries.get(t).dependencies)) {
        String what = entries.get(t).body.waitingFor();
        return "task '" + entries.get(t).name + "' in list '" + name + "'"
            + (what == null ? "" : " (waiting for " + what + ")");
      }
    }
    return null;
  }

  String taskName(int t) {
    return entries.get(t).name;
  }
}
