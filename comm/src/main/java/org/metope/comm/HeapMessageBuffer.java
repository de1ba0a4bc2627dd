package org.metope.comm;

/**
 * A {@link MessageBuffer} over a {@code double[]}: what {@link Communicator#newMessageBuffer}
 * gives on the backends whose messages are slices of heap arrays (in-process, MPJ Express). Its
 * messages take the array calls, so it is never busy.
 */
final class HeapMessageBuffer extends MessageBuffer {
  private final double[] values;

  HeapMessageBuffer(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: capacity=" + capacity);
    }
    values = new double[capacity];
  }

  /** The array behind {@code buffer}; throws when it is not a heap buffer. */
  static double[] arrayOf(MessageBuffer buffer) {
    if (buffer instanceof HeapMessageBuffer heap) {
      return heap.values;
    }
    throw new IllegalArgumentException("message buffer of another device: buffer=" + buffer
        + " (expected one from this communicator's newMessageBuffer)");
  }

  @Override
  public int capacity() {
    return values.length;
  }

  @Override
  public double get(int index) {
    return values[index];
  }

  @Override
  public void set(int index, double value) {
    values[index] = value;
  }

  @Override
  public void copyFrom(double[] source, int sourceOffset, int offset, int length) {
    System.arraycopy(source, sourceOffset, values, offset, length);
  }

  @Override
  public void copyTo(int offset, double[] target, int targetOffset, int length) {
    System.arraycopy(values, offset, target, targetOffset, length);
  }

  @Override
  public boolean isDirect() {
    return false;
  }

  @Override
  public String toString() {
    return "HeapMessageBuffer[capacity=" + values.length + "]";
  }
}
