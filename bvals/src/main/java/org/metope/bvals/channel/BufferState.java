package org.metope.bvals.channel;

/**
 * The five states of a {@link CommBuffer} (Parthenon's {@code BufferState}). Who may touch the
 * buffer's data in each state:
 *
 * <pre>
 *   state           sender may write          receiver may read
 *   STALE           yes, once its previous    no
 *                   send has completed
 *   SENDING         no                        no (not received yet)
 *   SENDING_NULL    no                        no
 *   RECEIVED        no                        yes
 *   RECEIVED_NULL   no                        no (ghosts take defaults)
 * </pre>
 *
 * <p>A same-rank channel walks {@code STALE -> SENDING[_NULL] -> RECEIVED[_NULL] -> STALE}. Across
 * ranks the sender's object walks {@code STALE -> SENDING[_NULL] -> STALE} (back to stale when its
 * send request completes) and the receiver's {@code STALE -> RECEIVED[_NULL] -> STALE}.
 */
public enum BufferState {
  /** The receiver no longer needs the data; the sender may fill the buffer. */
  STALE,
  /** The sender filled the buffer with data above the sparse threshold and sent it. */
  SENDING,
  /**
   * The sender is unallocated, or all its values in the boundary are below the sparse threshold:
   * nothing but the fact is sent (a zero-length message across ranks).
   */
  SENDING_NULL,
  /** The receiver has the sender's data in the buffer. */
  RECEIVED,
  /** The receiver learned that the sender sent null: its ghosts take default values. */
  RECEIVED_NULL
}
