package org.metope.comm.mpi;

/**
 * Doubles as {@code long} keys whose signed integer order is the order {@link Math#min} and
 * {@link Math#max} use for numbers (-0.0 below 0.0), so that MPI's integer {@code MPI_MIN} and
 * {@code MPI_MAX} give exactly Java's result. A non-negative double's bits are already ordered
 * as a positive long; a negative one's are flipped below zero, the most negative lowest. NaN has
 * no place in this order: {@link MpiCollectives} treats it apart.
 */
final class OrderedDoubles {
  private OrderedDoubles() {}

  /** The key of {@code value} (not NaN). */
  static long key(double value) {
    long bits = Double.doubleToRawLongBits(value);
    return bits >= 0 ? bits : bits ^ Long.MAX_VALUE;
  }

  /** The double whose {@link #key} is {@code key}. */
  static double value(long key) {
    return Double.longBitsToDouble(key >= 0 ? key : key ^ Long.MAX_VALUE);
  }
}
