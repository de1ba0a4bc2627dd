package org.metope.tasking;

import java.util.Arrays;

/**
 * A set of tasks of one {@link TaskList}, used as a dependency: a task added with a {@code TaskId}
 * runs only once every task in the set is complete. {@link #NONE} is the empty set, meaning "no
 * dependency". Ids combine with {@link #and}.
 *
 * <p>Ids are positions in their list, so lists built by the same code get equal ids in the same
 * order; a {@link TaskRegion} relies on that to match regional tasks across its lists.
 */
public final class TaskId {
  /** The empty set: no dependency. */
  public static final TaskId NONE = new TaskId(null, new int[0]);

  private final TaskList owner;
  private final int[] tasks; // sorted, distinct task indices in owner

  private TaskId(TaskList owner, int[] tasks) {
    this.owner = owner;
    this.tasks = tasks;
  }

  static TaskId single(TaskList owner, int index) {
    return new TaskId(owner, new int[] {index});
  }

  /** The union of this set and {@code other}; both must belong to the same list. */
  public TaskId and(TaskId other) {
    if (other.tasks.length == 0) {
      return this;
    }
    if (tasks.length == 0) {
      return other;
    }
    if (owner != other.owner) {
      throw new IllegalArgumentException(
          "cannot combine task ids of different lists: left=" + owner.name() + " right="
              + other.owner.name());
    }
    int[] merged = new int[tasks.length + other.tasks.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < tasks.length || j < other.tasks.length) {
      int next;
      if (j >= other.tasks.length || (i < tasks.length && tasks[i] < other.tasks[j])) {
        next = tasks[i++];
      } else if (i >= tasks.length || other.tasks[j] < tasks[i]) {
        next = other.tasks[j++];
      } else {
        next = tasks[i++];
        j++;
      }
      merged[n++] = next;
    }
    return new TaskId(owner, Arrays.copyOf(merged, n));
  }

  /** Whether this is the empty set. */
  public boolean isEmpty() {
    return tasks.length == 0;
  }

  TaskList owner() {
    return owner;
  }

  int[] indices() {
    return tasks;
  }

  /** The single task this id names; only for ids returned by {@code addTask}. */
  int single() {
    if (tasks.length != 1) {
      throw new IllegalArgumentException("expected the id of one task, got size=" + tasks.length);
    }
    return tasks[0];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskId other && owner == other.owner && Arrays.equals(tasks, other.tasks);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(tasks);
  }

  @Override
  public String toString() {
    return "TaskId" + Arrays.toString(tasks);
  }
}
