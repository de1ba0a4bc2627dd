package org.metope.tasking;

import java.util.Arrays;

/**
 * A group of tasks in one {@link TaskList} repeated until its completion task returns {@link
 * TaskStatus#COMPLETE}. The completion task is called every {@code checkInterval} iterations (and
 * always on the last allowed one); in between, the group simply runs again.
 *
 * <p>Reaching {@code maxIterations} without convergence does what {@link #atLimit} says: by
 * default ({@link AtLimit#FAIL}) it fails the collection with an error naming the group and its
 * list; with {@link AtLimit#REPORT} the group ends as if converged (Parthenon's behaviour) and
 * {@link #limitReached()} tells the package, which reports it (Parthenon's {@code
 * warn_without_convergence}).
 */
public final class IterativeTasks implements TaskAdder {
  private final TaskList list;
  private final int groupIndex;
  private final String label;
  private int maxIterations = 1000;
  private int checkInterval = 1;
  private int[] members = new int[0];
  private int completionTask = -1;
  private AtLimit atLimit = AtLimit.FAIL;
  private int iteration; // 1-based number of the iteration now running
  private boolean limitReached;

  /** What reaching {@code maxIterations} without convergence does. */
  public enum AtLimit {
    /** The collection fails with an error naming the group, its list and the limit. */
    FAIL,
    /**
     * The group ends as if its completion task had returned {@link TaskStatus#COMPLETE}; {@link
     * #limitReached()} is true until the next execution.
     */
    REPORT
  }

  IterativeTasks(TaskList list, int groupIndex, String label) {
    this.list = list;
    this.groupIndex = groupIndex;
    this.label = label;
  }

  /** Sets the most iterations allowed (default 1000). */
  public IterativeTasks maxIterations(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max_iterations must be >= 1: group=" + label + " value=" + max);
    }
    this.maxIterations = max;
    return this;
  }

  /** Sets what reaching {@code maxIterations} without convergence does (default {@code FAIL}). */
  public IterativeTasks atLimit(AtLimit outcome) {
    if (outcome == null) {
      throw new IllegalArgumentException("at-limit outcome must be non-null: group=" + label);
    }
    this.atLimit = outcome;
    return this;
  }

  /** Calls the completion task only every {@code interval} iterations (default 1). */
  public IterativeTasks checkInterval(int interval) {
    if (interval < 1) {
      throw new IllegalArgumentException("check_interval must be >= 1: group=" + label + " value=" + interval);
    }
    this.checkInterval = interval;
    return this;
  }

  /** Adds a task repeated on every iteration. */
  @Override
  public TaskId addTask(TaskId dependency, String taskName, Task task) {
    if (completionTask >= 0) {
      throw new IllegalStateException("group '" + label + "' already has its completion task");
    }
    TaskId id = list.add(dependency, taskName, task, false, groupIndex);
    addMember(id.single());
    return id;
  }

  /**
   * Adds a regional task repeated on every iteration (Parthenon's {@code local_sync} inside an
   * iterative sublist): in each iteration its dependents run only once it has completed in every
   * list of the region. A global convergence check is built from two of them: one writing each
   * list's partial residual, then one in which the first list combines the partials (and reduces
   * over ranks) while the others do nothing; the completion task, depending on the second, reads
   * the same global residual in every list, so all lists stop in the same iteration whatever the
   * number of partitions. Every list of the region must add the same regional tasks.
   */
  @Override
  public TaskId addRegionalTask(TaskId dependency, String taskName, Task task) {
    if (completionTask >= 0) {
      throw new IllegalStateException("group '" + label + "' already has its completion task");
    }
    TaskId id = list.add(dependency, taskName, task, true, groupIndex);
    addMember(id.single());
    return id;
  }

  /**
   * Sets the task that decides whether the group has converged: it returns {@link
   * TaskStatus#COMPLETE} to finish or {@link TaskStatus#ITERATE} to run the group again.
   */
  public TaskId setCompletionTask(TaskId dependency, String taskName, Task task) {
    if (completionTask >= 0) {
      throw new IllegalStateException("group '" + label + "' already has its completion task");
    }
    TaskId id = list.add(dependency, taskName, task, false, groupIndex);
    completionTask = id.single();
    addMember(completionTask);
    return id;
  }

  private void addMember(int index) {
    members = Arrays.copyOf(members, members.length + 1);
    members[members.length - 1] = index;
  }

  String label() {
    return label;
  }

  int maxIterations() {
    return maxIterations;
  }

  int[] members() {
    return members;
  }

  boolean isCompletionTask(int index) {
    return index == completionTask;
  }

  /** Whether the completion task is to be called at the end of this iteration. */
  boolean checkDue() {
    return iteration % checkInterval == 0 || iteration >= maxIterations;
  }

  /** Moves to the next iteration; false when the limit is exhausted. */
  boolean startNextIteration() {
    if (iteration >= maxIterations) {
      return false;
    }
    iteration++;
    return true;
  }

  /** Whether the exhausted limit ends the group ({@link AtLimit#REPORT}) rather than failing. */
  boolean endsAtLimit() {
    if (atLimit == AtLimit.REPORT) {
      limitReached = true;
      return true;
    }
    return false;
  }

  /**
   * Whether the last execution ended this group at {@code maxIterations} without its completion
   * task returning {@link TaskStatus#COMPLETE} (only with {@link AtLimit#REPORT}).
   */
  public boolean limitReached() {
    return limitReached;
  }

  /** Iterations started in the current execution (1 while the first runs). */
  public int iterations() {
    return iteration;
  }

  void reset() {
    iteration = 1;
    limitReached = false;
    if (completionTask < 0 && members.length > 0) {
      throw new IllegalStateException("iterative group '" + label + "' in list '" + list.name()
          + "' has no completion task");
    }
  }
}
