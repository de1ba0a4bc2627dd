package org.metope.mesh;

import java.util.function.Supplier;
import org.metope.comm.CommAbortedException;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskFailureException;
import org.metope.tasking.TaskStallException;
import org.metope.tasking.TaskThreadPool;

/**
 * A run that cannot go on for a reason the user can act on, such as a time step that stays below
 * {@code <parthenon/time> dt_min}. The message is the one line the user sees; entry points print
 * it without a stack trace and exit non-zero.
 */
public final class DriverError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error whose message is the complete user-facing line. */
  public DriverError(String message) {
    super(message);
  }

  /**
   * Runs {@code tasks} on {@code pool} (null: the calling thread); a stall (no progress within the
   * collection's timeout) or another rank's abort ends it with a {@link DriverError} that names
   * {@code what} ("stage 1 of cycle 3", "the ghost fill of container base"), followed by {@code
   * diagnostics} (e.g. every channel's state; empty for none). Any other failure is rethrown. Both
   * are asked only on failure, so a caller that keeps them runs a collection without allocating.
   */
  public static void execute(TaskCollection tasks, TaskThreadPool pool, Supplier<String> what,
      Supplier<String> diagnostics) {
    try {
      if (pool == null) {
        tasks.execute();
      } else {
        tasks.execute(pool);
      }
    } catch (TaskStallException e) {
      throw new DriverError(what.get() + " stalled: " + e.getMessage() + diagnostics.get());
    } catch (TaskFailureException e) {
      if (e.getCause() instanceof CommAbortedException) {
        throw new DriverError(what.get() + " stopped because another rank aborted: "
            + e.getCause().getMessage() + diagnostics.get());
      }
      throw e;
    }
  }

  /** {@link #execute(TaskCollection, TaskThreadPool, Supplier, Supplier)} with a name made now. */
  public static void execute(TaskCollection tasks, TaskThreadPool pool, String what,
      Supplier<String> diagnostics) {
    execute(tasks, pool, () -> what, diagnostics);
  }
}
