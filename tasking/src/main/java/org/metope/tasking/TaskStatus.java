package org.metope.tasking;

/**
 * What a task reports after one call.
 *
 * <p>Expected non-completion is a value, not an exception: a receive whose message has not arrived
 * returns {@link #INCOMPLETE} and is simply called again on a later pass.
 */
public enum TaskStatus {
  /** The task is done; tasks depending on it may run. */
  COMPLETE,
  /** The task could not finish yet (typically waiting on a message); call it again later. */
  INCOMPLETE,
  /**
   * Only for the completion task of an iterative group: the group has not converged and its tasks
   * run again. Any other task returning it is a failure.
   */
  ITERATE,
  /** The task failed; the collection stops with an error naming the task and its list. */
  FAIL
}
