package org.metope.tasking;

/**
 * No task of a region made progress for longer than the collection's stall timeout. The message
 * lists every pending task and what it waits on.
 */
public final class TaskStallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TaskStallException(String message) {
    super(message);
  }
}
