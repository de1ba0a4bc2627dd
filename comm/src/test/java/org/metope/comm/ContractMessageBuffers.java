package org.metope.comm;

import static org.metope.comm.CommunicatorContract.expect;
import static org.metope.comm.CommunicatorContract.expectBits;
import static org.metope.comm.CommunicatorContract.expectThrows;
import static org.metope.comm.ContractPointToPoint.value;

/**
 * The {@link MessageBuffer} part of {@link CommunicatorContract}: messages between buffers of
 * {@link Communicator#newMessageBuffer} arrive whole and in place, mix with array messages, and a
 * direct buffer (the MPI device's native memory) refuses Java's reads and writes while an
 * operation on it is in flight. Every rank sends to the next rank of a ring and receives from the
 * previous one.
 */
final class ContractMessageBuffers {
  private static final double GUARD = -1.0;

  private ContractMessageBuffers() {}

  private static int next(Communicator c) {
    return (c.rank() + 1) % c.size();
  }

  private static int prev(Communicator c) {
    return (c.rank() + c.size() - 1) % c.size();
  }

  private static MessageBuffer filled(Communicator c, int length, int first) {
    MessageBuffer b = c.newMessageBuffer(length);
    for (int i = 0; i < length; i++) {
      b.set(i, value(c.rank(), first + i));
    }
    return b;
  }

  /** A slice of one buffer lands in a slice of another; the values around it stay. */
  static void ringOfBufferSlices(Communicator c) {
    MessageBuffer source = filled(c, 20, 0);
    MessageBuffer target = c.newMessageBuffer(30);
    for (int i = 0; i < 30; i++) {
      target.set(i, GUARD);
    }
    Request recv = c.irecv(c.newRequest(), target, 7, 15, prev(c), 20);
    Request send = c.isend(c.newRequest(), source, 3, 11, next(c), 20);
    recv.waitFor();
    send.waitFor();
    expect(recv.length() == 11 && send.length() == 11, "lengths: received=" + recv.length()
        + ", sent=" + send.length() + " (expected 11)");
    double[] copied = new double[30];
    target.copyTo(0, copied, 0, 30);
    for (int i = 0; i < 30; i++) {
      double expected = i >= 7 && i < 18 ? value(prev(c), 3 + i - 7) : GUARD;
      expectBits(expected, target.get(i), "target.get(" + i + ") on rank " + c.rank());
      expectBits(expected, copied[i], "copyTo value " + i + " on rank " + c.rank());
    }
    c.barrier();
  }

  /**
   * 1 MiB both ways from buffers, with the receive started first: it lets the peer's send complete
   * while this rank waits for its own; an array message of the same tag follows in order.
   */
  static void largeBufferMessagesAndArraysInOrder(Communicator c) {
    int n = 1 << 17;
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = value(c.rank(), i);
    }
    MessageBuffer source = c.newMessageBuffer(n);
    source.copyFrom(values, 0, 0, n);
    MessageBuffer target = c.newMessageBuffer(n);
    double[] after = new double[2];
    Request recv = c.irecv(c.newRequest(), target, 0, n, prev(c), 21);
    Request recvArray = c.irecv(after, 0, 2, prev(c), 21);
    Request send = c.isend(c.newRequest(), source, 0, n, next(c), 21);
    Request sendArray = c.isend(new double[] {1.5, 2.5}, 0, 2, next(c), 21);
    send.waitFor();
    sendArray.waitFor();
    recv.waitFor();
    recvArray.waitFor();
    expect(recv.length() == n && recvArray.length() == 2, "lengths: buffer=" + recv.length()
        + " (expected " + n + "), array=" + recvArray.length() + " (expected 2)");
    double[] received = new double[n];
    target.copyTo(0, received, 0, n);
    for (int i = 0; i < n; i++) {
      if (received[i] != value(prev(c), i)) {
        expectBits(value(prev(c), i), received[i], "large buffer message value " + i);
      }
    }
    expectBits(2.5, after[1], "the array message after the buffer's");
    c.barrier();
  }

  /**
   * A direct buffer is busy from the start of an operation until a test finds it complete, also
   * when MPI has long finished a small send: a write over a send in flight and a read of a
   * receive in flight throw. Heap buffers are never busy (their messages are array messages).
   */
  static void busyBufferRefusesJava(Communicator c) {
    MessageBuffer outgoing = filled(c, 4, 0);
    MessageBuffer incoming = c.newMessageBuffer(4);
    Request recv = c.irecv(c.newRequest(), incoming, 0, 4, prev(c), 22);
    if (incoming.isDirect()) {
      expectThrows(IllegalStateException.class, "in flight", () -> incoming.get(0));
    }
    Request send = c.isend(c.newRequest(), outgoing, 0, 4, next(c), 22);
    if (outgoing.isDirect()) {
      expectThrows(IllegalStateException.class, "in flight", () -> outgoing.set(0, 9.0));
      expectThrows(IllegalStateException.class, "in flight",
          () -> outgoing.copyFrom(new double[4], 0, 0, 4));
    }
    send.waitFor();
    recv.waitFor();
    outgoing.set(0, 9.0);
    expectBits(9.0, outgoing.get(0), "a buffer is free again once its send completed");
    expectBits(value(prev(c), 3), incoming.get(3), "the received value once complete");
    c.barrier();
  }

  /** A buffer not from this communicator's device, or a range outside the buffer, is misuse. */
  static void foreignBuffersAndRangesAreRejected(Communicator c) {
    MessageBuffer own = c.newMessageBuffer(8);
    MessageBuffer foreign = new MessageBuffer() {
      @Override
      public int capacity() {
        return 8;
      }

      @Override
      public double get(int index) {
        return 0;
      }

      @Override
      public void set(int index, double value) {}

      @Override
      public void copyFrom(double[] source, int sourceOffset, int offset, int length) {}

      @Override
      public void copyTo(int offset, double[] target, int targetOffset, int length) {}

      @Override
      public boolean isDirect() {
        return false;
      }
    };
    expectThrows(IllegalArgumentException.class, "another device",
        () -> c.isend(c.newRequest(), foreign, 0, 1, next(c), 23));
    expectThrows(IllegalArgumentException.class, "offset=5",
        () -> c.irecv(c.newRequest(), own, 5, 10, prev(c), 23));
    expectThrows(IllegalArgumentException.class, "tag=-1",
        () -> c.isend(c.newRequest(), own, 0, 1, next(c), -1));
    c.barrier();
  }
}
