package org.metope.comm;

import static org.metope.comm.CommunicatorContract.expect;
import static org.metope.comm.CommunicatorContract.expectBits;
import static org.metope.comm.CommunicatorContract.expectThrows;

import java.time.Duration;
import java.util.Arrays;

/**
 * The point-to-point part of {@link CommunicatorContract}. Every rank sends to the next rank of a
 * ring and receives from the previous one (itself on one rank), so each check runs on any number of
 * ranks.
 */
final class ContractPointToPoint {
  /** How long a probe waits for its message, measured by this JVM's progress. */
  private static final Duration PROBE_LIMIT = Duration.ofSeconds(30);
  private static final double GUARD = -1.0;

  private ContractPointToPoint() {}

  /** The value rank {@code rank} puts at index {@code i}: distinct for every (rank, i). */
  static double value(int rank, int i) {
    return rank * 1_000_000.0 + i + 0.25;
  }

  private static int next(Communicator c) {
    return (c.rank() + 1) % c.size();
  }

  private static int prev(Communicator c) {
    return (c.rank() + c.size() - 1) % c.size();
  }

  private static double[] filled(int rank, int length, int first) {
    double[] a = new double[length];
    for (int i = 0; i < length; i++) {
      a[i] = value(rank, first + i);
    }
    return a;
  }

  private static double[] guarded(int length) {
    double[] a = new double[length];
    Arrays.fill(a, GUARD);
    return a;
  }

  static void rankAndSize(Communicator c) {
    expect(c.size() >= 1, "size must be positive: size=" + c.size());
    expect(c.rank() >= 0 && c.rank() < c.size(), "rank out of range: rank=" + c.rank()
        + ", size=" + c.size());
    int[] ranks = c.allgather(new int[] {c.rank()});
    for (int r = 0; r < c.size(); r++) {
      expect(ranks[r] == r, "allgather of ranks must be 0..size-1: ranks=" + Arrays.toString(ranks));
    }
    c.barrier();
  }

  static void ringOfSlices(Communicator c) {
    double[] source = filled(c.rank(), 20, 0);
    double[] target = guarded(30);
    Request recv = c.irecv(target, 7, 15, prev(c), 5);
    Request send = c.isend(source, 3, 11, next(c), 5);
    recv.waitFor();
    send.waitFor();
    expect(recv.length() == 11, "received length: expected=11, actual=" + recv.length());
    expect(send.length() == 11, "sent length: expected=11, actual=" + send.length());
    for (int i = 0; i < 30; i++) {
      double expected = i >= 7 && i < 18 ? value(prev(c), 3 + i - 7) : GUARD;
      expectBits(expected, target[i], "target[" + i + "] on rank " + c.rank());
    }
    c.barrier();
  }

  static void tagsMatchOutOfOrder(Communicator c) {
    Request[] sends = new Request[3];
    for (int tag = 3; tag >= 1; tag--) {
      sends[tag - 1] = c.isend(filled(c.rank(), tag, 10 * tag), 0, tag, next(c), tag);
    }
    for (int tag = 1; tag <= 3; tag++) {
      double[] target = guarded(5);
      Request r = c.irecv(target, 0, 5, prev(c), tag);
      r.waitFor();
      expect(r.length() == tag, "length of tag " + tag + ": expected=" + tag + ", actual="
          + r.length());
      for (int i = 0; i < tag; i++) {
        expectBits(value(prev(c), 10 * tag + i), target[i], "tag " + tag + " value " + i);
      }
    }
    for (Request s : sends) {
      s.waitFor();
    }
    c.barrier();
  }

  static void sameTagKeepsOrder(Communicator c) {
    int messages = 5;
    Request[] sends = new Request[messages];
    for (int m = 0; m < messages; m++) {
      sends[m] = c.isend(filled(c.rank(), m + 1, 100 * m), 0, m + 1, next(c), 4);
    }
    for (int m = 0; m < messages; m++) {
      double[] target = guarded(8);
      Request r = c.irecv(target, 0, 8, prev(c), 4);
      r.waitFor();
      expect(r.length() == m + 1, "message " + m + " overtaken: expected length=" + (m + 1)
          + ", actual=" + r.length());
      expectBits(value(prev(c), 100 * m), target[0], "first value of message " + m);
    }
    for (Request s : sends) {
      s.waitFor();
    }
    c.barrier();
  }

  static void probeReportsPendingLength(Communicator c) {
    expect(c.iprobe(prev(c), 13) == -1, "iprobe of a tag never sent must be -1: actual="
        + c.iprobe(prev(c), 13));
    Request send = c.isend(filled(c.rank(), 7, 0), 0, 7, next(c), 11);
    int probed = probeUntilArrived(c, prev(c), 11);
    expect(probed == 7, "probed length: expected=7, actual=" + probed);
    double[] target = guarded(10);
    Request recv = c.irecv(target, 0, 10, prev(c), 11);
    recv.waitFor();
    expect(recv.length() == 7, "received length after probe: expected=7, actual="
        + recv.length());
    expect(c.iprobe(prev(c), 11) == -1, "iprobe after the receive must be -1: actual="
        + c.iprobe(prev(c), 11));
    send.waitFor();
    c.barrier();
  }

  static void zeroLengthMessages(Communicator c) {
    Request send = c.isend(new double[0], 0, 0, next(c), 12);
    int probed = probeUntilArrived(c, prev(c), 12);
    expect(probed == 0, "probed length of an empty message: expected=0, actual=" + probed);
    double[] target = guarded(4);
    Request recv = c.irecv(target, 0, 4, prev(c), 12);
    recv.waitFor();
    send.waitFor();
    expect(recv.length() == 0, "received length: expected=0, actual=" + recv.length());
    for (int i = 0; i < 4; i++) {
      expectBits(GUARD, target[i], "an empty message must not write: target[" + i + "]");
    }
    c.barrier();
  }

  static void requestsAreReusable(Communicator c) {
    Request send = c.newRequest();
    Request recv = c.newRequest();
    expect(!send.isActive() && send.length() == -1, "a new request is idle: " + send);
    double[] source = new double[4];
    double[] target = new double[4];
    for (int step = 0; step < 50; step++) {
      for (int i = 0; i < 4; i++) {
        source[i] = value(c.rank(), 10 * step + i);
      }
      c.irecv(recv, target, 0, 4, prev(c), 6);
      c.isend(send, source, 0, 4, next(c), 6);
      recv.waitFor();
      send.waitFor();
      expect(!recv.isActive() && recv.length() == 4, "completed receive: active="
          + recv.isActive() + ", length=" + recv.length());
      for (int i = 0; i < 4; i++) {
        expectBits(value(prev(c), 10 * step + i), target[i], "step " + step + " value " + i);
      }
    }
    c.barrier();
  }

  static void largeMessages(Communicator c) {
    int n = 1 << 17; // 1 MiB of doubles, beyond MPJ's 128 KiB eager limit
    double[] source = filled(c.rank(), n, 0);
    double[] target = new double[n];
    Request recv = c.irecv(target, 0, n, prev(c), 8);
    Request send = c.isend(source, 0, n, next(c), 8);
    recv.waitFor();
    send.waitFor();
    expect(recv.length() == n, "large message length: expected=" + n + ", actual="
        + recv.length());
    for (int i = 0; i < n; i++) {
      if (target[i] != value(prev(c), i)) {
        expectBits(value(prev(c), i), target[i], "large message value " + i);
      }
    }
    c.barrier();
  }

  /**
   * A started receive is MPI's posted receive: the peer's large send completes while this rank
   * waits for its own send and has not looked at the receive yet. A device that matched messages
   * only when a receive is tested (probe, then receive) would leave every rank of the ring waiting
   * for its send, which waits for the next rank's match: the run hangs here until its harness's
   * limit ends it (docs/CLUSTER.md, "Copies on the MPI device").
   */
  static void startedReceiveLetsLargeSendComplete(Communicator c) {
    int n = 1 << 17;
    double[] target = new double[n];
    Request recv = c.irecv(target, 0, n, prev(c), 16);
    Request send = c.isend(filled(c.rank(), n, 3), 0, n, next(c), 16);
    send.waitFor();
    recv.waitFor();
    expectBits(value(prev(c), 3), target[0], "first value of the large message");
    expectBits(value(prev(c), n + 2), target[n - 1], "last value of the large message");
    c.barrier();
  }

  /**
   * Two receives of one peer and tag take the messages in the order they were started, whichever
   * is waited for first (MPI's matching order), and the later one completes without the earlier
   * one being tested.
   */
  static void sameTagReceivesMatchInStartedOrder(Communicator c) {
    double[] first = guarded(4);
    double[] second = guarded(4);
    Request a = c.irecv(first, 0, 4, prev(c), 17);
    Request b = c.irecv(second, 0, 4, prev(c), 17);
    c.barrier();
    Request s1 = c.isend(filled(c.rank(), 1, 10), 0, 1, next(c), 17);
    Request s2 = c.isend(filled(c.rank(), 2, 20), 0, 2, next(c), 17);
    b.waitFor();
    a.waitFor();
    expect(a.length() == 1 && b.length() == 2, "receives matched out of the order they were "
        + "started: first receive length=" + a.length() + " (expected 1), second=" + b.length()
        + " (expected 2)");
    expectBits(value(prev(c), 10), first[0], "first receive");
    expectBits(value(prev(c), 20), second[0], "second receive");
    s1.waitFor();
    s2.waitFor();
    c.barrier();
  }

  static void truncationIsReported(Communicator c) {
    Request send = c.isend(filled(c.rank(), 5, 0), 0, 5, next(c), 14);
    double[] target = guarded(3);
    Request recv = c.irecv(target, 0, 3, prev(c), 14);
    expectThrows(IllegalStateException.class, "capacity", recv::waitFor);
    send.waitFor();
    c.barrier();
  }

  static void misuseIsRejected(Communicator c) {
    double[] a = new double[8];
    expectThrows(IllegalArgumentException.class, "tag=-1", () -> c.isend(a, 0, 1, next(c), -1));
    expectThrows(IllegalArgumentException.class, "tag=32768",
        () -> c.irecv(a, 0, 1, prev(c), Communicator.MAX_TAG + 1));
    expectThrows(IllegalArgumentException.class, "peer=" + c.size(),
        () -> c.isend(a, 0, 1, c.size(), 0));
    expectThrows(IllegalArgumentException.class, "offset=5",
        () -> c.irecv(a, 5, 10, prev(c), 0));
    expectThrows(IllegalArgumentException.class, "tag=-2", () -> c.iprobe(prev(c), -2));
    expectThrows(IllegalArgumentException.class, "root=" + c.size(),
        () -> c.broadcast(a, c.size()));
    Request pending = c.irecv(a, 0, 1, c.rank(), 15);
    expectThrows(IllegalStateException.class, "in flight",
        () -> c.irecv(pending, a, 0, 1, c.rank(), 15));
    Request self = c.isend(new double[] {42.0}, 0, 1, c.rank(), 15);
    pending.waitFor();
    self.waitFor();
    expectBits(42.0, a[0], "self message");
    c.barrier();
  }

  private static int probeUntilArrived(Communicator c, int peer, int tag) {
    int[] length = {-1};
    String stalled;
    try {
      stalled = ProgressDeadline.untilHere(PROBE_LIMIT,
          () -> (length[0] = c.iprobe(peer, tag)) >= 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while probing: peer=" + peer + ", tag=" + tag, e);
    }
    if (stalled != null) {
      throw new AssertionError("message never arrived: peer=" + peer + ", tag=" + tag + " ("
          + stalled + ")");
    }
    return length[0];
  }

}
