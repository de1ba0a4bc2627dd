package org.metope.tasking;

/**
 * One unit of work in a {@link TaskList}. Called repeatedly until it returns something other than
 * {@link TaskStatus#INCOMPLETE}; it must therefore be safe to call again after an incomplete return.
 */
@FunctionalInterface
public interface Task {
  /** Does (part of) the work and says where it stands. */
  TaskStatus run();

  /**
   * What the task waits for after returning {@link TaskStatus#INCOMPLETE}, e.g. the messages of
   * a receive that have not arrived, for the one line that reports a stall; null when it cannot
   * say. Asked only when a collection stalls.
   */
  default String waitingFor() {
    return null;
  }
}
