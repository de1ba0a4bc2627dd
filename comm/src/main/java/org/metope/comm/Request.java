package org.metope.comm;

/**
 * A non-blocking send or receive started by {@link Communicator#isend} or {@link
 * Communicator#irecv}. A request is reusable: once complete, pass it to another {@code isend} or
 * {@code irecv}; restarting one still in flight is misuse.
 *
 * <p>A request is used by one thread at a time.
 */
public interface Request {
  /**
   * True once the operation has completed; never blocks. A receive that has not arrived is the
   * expected outcome {@code false}, not an exception.
   *
   * @throws CommAbortedException when the run has been aborted
   * @throws IllegalStateException when the received message was longer than the receive's
   *     capacity, or the request was never started
   */
  boolean test();

  /**
   * Blocks until the operation has completed.
   *
   * @throws CommAbortedException when the run is aborted before or while waiting
   */
  void waitFor();

  /**
   * The number of elements sent or received, valid once complete ({@link #test()} returned true);
   * -1 before. A zero-length message gives 0.
   */
  int length();

  /**
   * True while the operation is in flight: started and not yet known to be complete (the MPJ
   * backend learns of completion only in {@link #test()} or {@link #waitFor()}). A request can be
   * restarted only when this is false.
   */
  boolean isActive();
}
