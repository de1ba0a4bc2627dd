package org.metope.outputs;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.metope.mesh.DriverError;

/**
 * The last steps of {@link AtomicFile} writes, taken off the writing thread: the flush of each
 * complete temporary file to disk, its rename into place and the flush of its directory, one
 * file after the other in the order the writes were queued. A run's outputs use one (rank 0
 * writes the files): the flushes wait for the disk, several milliseconds each on a busy one, and
 * the time loop (and every other rank, which waits for rank 0 at the next exchange) need not
 * wait with them. A final name still only ever names a complete file; it appears a little later.
 *
 * <p>At most {@value #CAPACITY} files wait at once; a write beyond that waits for a place, so a
 * disk slower than the outputs holds the run back rather than filling up with temporaries. The
 * first failure (a rename that cannot happen) removes its temporary file and is thrown, as the
 * {@link DriverError} the write would have thrown, by the next {@link #submit} or by {@link
 * #await}; {@link #await} returns once every queued file is in place. Files queued before a
 * failure is thrown are abandoned (their temporaries removed), as the writes after a failed one
 * never happen when the writer renames itself: a failed file's {@code .xdmf} never names a file
 * that is not there.
 */
final class RenameQueue {
  /** Files that may wait at once. */
  static final int CAPACITY = 8;

  private final ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(CAPACITY), RenameQueue::daemon, RenameQueue::waitForPlace);
  private Future<?> last;
  private volatile DriverError failure;
  /** Failures so far: a file queued when there were fewer is abandoned. */
  private volatile int failures;

  RenameQueue() {
    thread.allowCoreThreadTimeOut(true);
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "metope-output-rename");
    t.setDaemon(true);
    return t;
  }

  /** A full queue: the writer waits until the oldest file is in place. */
  private static void waitForPlace(Runnable r, ThreadPoolExecutor executor) {
    try {
      executor.getQueue().put(r);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DriverError("interrupted while waiting to rename an output into place");
    }
  }

  /**
   * Queues {@code finish}, the rest of a write whose temporary file is complete, or {@code
   * abandon} in its place where an earlier file fails first; throws the first failure of an
   * earlier file instead, if there was one.
   */
  synchronized void submit(Runnable finish, Runnable abandon) {
    throwFailure();
    int failuresBefore = failures;
    last = thread.submit(() -> {
      if (failures != failuresBefore) {
        abandon.run();
        return;
      }
      try {
        finish.run();
      } catch (DriverError e) {
        if (failure == null) {
          failure = e;
        }
        failures++;
      }
    });
  }

  /** Waits until every queued file is in place (or failed); throws the first failure. */
  synchronized void await() {
    if (last != null) {
      try {
        last.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new DriverError("interrupted while waiting for outputs to be renamed into place");
      } catch (ExecutionException e) {
        throw new IllegalStateException("a rename task let an exception through", e.getCause());
      }
      last = null;
    }
    throwFailure();
  }

  private void throwFailure() {
    DriverError e = failure;
    if (e != null) {
      failure = null;
      throw e;
    }
  }
}
