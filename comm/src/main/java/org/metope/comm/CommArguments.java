package org.metope.comm;

/**
 * Argument checks shared by every backend; each failure names the offending values. Public for
 * the MPJ backend ({@code org.metope.comm.mpj}), which MPJ's multicore device loads with a class
 * loader of each rank's own.
 */
public final class CommArguments {
  private CommArguments() {}

  public static void checkPeer(int peer, int size) {
    if (peer < 0 || peer >= size) {
      throw new IllegalArgumentException("peer out of range [0, size): peer=" + peer
          + ", size=" + size);
    }
  }

  public static void checkRoot(int root, int size) {
    if (root < 0 || root >= size) {
      throw new IllegalArgumentException("root out of range [0, size): root=" + root
          + ", size=" + size);
    }
  }

  public static void checkTag(int tag) {
    if (tag < 0 || tag > Communicator.MAX_TAG) {
      throw new IllegalArgumentException("tag out of range [0, " + Communicator.MAX_TAG
          + "]: tag=" + tag);
    }
  }

  public static void checkSlice(double[] array, int offset, int length) {
    if (array == null) {
      throw new IllegalArgumentException("array is null: offset=" + offset + ", length="
          + length);
    }
    if (offset < 0 || length < 0 || offset > array.length - length) {
      throw new IllegalArgumentException("slice out of bounds: offset=" + offset + ", length="
          + length + ", array.length=" + array.length);
    }
  }

  public static void checkNotNull(Object value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is null");
    }
  }

  /** {@code values} and {@code ops} are given and of one length: one op per value. */
  public static void checkOps(long[] values, ReduceOp[] ops) {
    checkNotNull(values, "values");
    checkNotNull(ops, "ops");
    if (ops.length != values.length) {
      throw new IllegalArgumentException("one op per value: values=" + values.length + ", ops="
          + ops.length);
    }
  }

  public static void checkPointToPoint(double[] array, int offset, int length, int peer, int tag,
      int size) {
    checkSlice(array, offset, length);
    checkPeer(peer, size);
    checkTag(tag);
  }
}
