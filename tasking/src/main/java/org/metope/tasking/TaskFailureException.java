package org.metope.tasking;

/**
 * A task returned {@link TaskStatus#FAIL}, threw, misused {@link TaskStatus#ITERATE}, or an iterative
 * group ran out of iterations. The message names the task and its list.
 */
public final class TaskFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TaskFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
