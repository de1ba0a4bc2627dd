package org.metope.comm;

/**
 * A buffer of doubles that messages leave from and land in, allocated by the communicator that
 * moves them ({@link Communicator#newMessageBuffer}) and reused for the whole run. Where the
 * transport reads and writes memory outside the Java heap (the MPI device), the buffer is that
 * memory: a message costs MPI's own copy and nothing in Java, where a slice of a {@code double[]}
 * is copied into native memory and out again, since the garbage collector may move an array
 * while MPI holds its address. Elsewhere the buffer is a heap array and its messages take the
 * array calls.
 *
 * <p><b>Busy while in flight.</b> On a {@linkplain #isDirect() direct} buffer the transport may
 * read or write at any moment between the start of a send or receive and the {@link Request#test}
 * that finds it complete, so {@link #get}, {@link #set}, {@link #copyFrom} and {@link #copyTo}
 * throw {@link IllegalStateException} while any operation on the buffer is in flight: a value
 * written over a send in flight, or read before its receive completed, is caught instead of
 * travelling or being read half-written.
 */
public abstract class MessageBuffer {
  protected MessageBuffer() {}

  /** Number of doubles the buffer holds. */
  public abstract int capacity();

  /** The value at {@code index}. */
  public abstract double get(int index);

  /** Sets the value at {@code index}. */
  public abstract void set(int index, double value);

  /** Copies {@code source[sourceOffset, sourceOffset + length)} to {@code [offset, offset + length)}. */
  public abstract void copyFrom(double[] source, int sourceOffset, int offset, int length);

  /** Copies {@code [offset, offset + length)} to {@code target[targetOffset, targetOffset + length)}. */
  public abstract void copyTo(int offset, double[] target, int targetOffset, int length);

  /**
   * True when the transport works on this buffer itself, without a copy: then the buffer is busy
   * while an operation on it is in flight.
   */
  public abstract boolean isDirect();

  /** Throws unless {@code [offset, offset + length)} lies inside a buffer of {@code capacity}. */
  protected static void checkRange(int capacity, int offset, int length) {
    if (offset < 0 || length < 0 || offset > capacity - length) {
      throw new IllegalArgumentException("range out of the message buffer: offset=" + offset
          + ", length=" + length + ", capacity=" + capacity);
    }
  }
}
