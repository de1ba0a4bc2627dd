package org.metope.tasking;

/**
 * Where tasks are added: a whole {@link TaskList}, or an {@link IterativeTasks} group whose tasks
 * repeat every iteration (Parthenon's {@code TaskList} stands for both, a sublist being a list).
 * Code that builds a fixed sequence of tasks, such as a ghost exchange, takes one of these and
 * works in either.
 */
public interface TaskAdder {
  /** Adds a task that runs once every task in {@code dependency} is complete. */
  TaskId addTask(TaskId dependency, String taskName, Task task);

  /**
   * Adds a regional task: its dependents run only once it has completed in every list of the
   * region (in a group, in every list for this iteration).
   */
  TaskId addRegionalTask(TaskId dependency, String taskName, Task task);
}
