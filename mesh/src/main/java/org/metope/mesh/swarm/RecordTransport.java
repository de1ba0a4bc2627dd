package org.metope.mesh.swarm;

import java.util.Arrays;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * Flat records of doubles sent to the peer ranks of an exchange, one message per peer and round,
 * empty or not, and this rank's own records kept aside: the transport under {@link SwarmExchange}
 * (particles) and {@link CloudInCell} (ghost deposits).
 *
 * <p>A round: {@link #clear}, records written with {@link #reserve} into {@link #buffer}, {@link
 * #post}, then {@link #poll} until true, then the sources read in rank order ({@link #source}),
 * this rank's own buffer in its place. Because ranks own ascending gid ranges, reading sources in
 * rank order sees records in the order their sending blocks' gids come, as one rank would. Buffers
 * grow as needed and are kept; a receive's length is learnt from {@link Communicator#iprobe}.
 */
final class RecordTransport {
  /** The index of this rank's own records in {@link #reserve} and {@link #buffer}. */
  static final int LOCAL = -1;

  private final Communicator comm;
  private final int tag;
  private int[] peers = new int[0];
  private double[][] sendBuffers = new double[0][];
  private int[] sendLengths = new int[0];
  private Request[] sends = new Request[0];
  private double[][] receiveBuffers = new double[0][];
  private int[] receiveLengths = new int[0];
  private Request[] receives = new Request[0];
  private boolean[] posted = new boolean[0];
  private boolean[] received = new boolean[0];
  private double[] local = new double[64];
  private int localLength;

  /** A transport on {@code comm} (its own duplicate), messages with {@code tag}. */
  RecordTransport(Communicator comm, int tag) {
    this.comm = comm;
    this.tag = tag;
  }

  /** The communicator. */
  Communicator communicator() {
    return comm;
  }

  /** Exchanges with {@code peers} (ascending ranks, this rank not among them) from now on. */
  void setPeers(int[] peers) {
    this.peers = peers.clone();
    int n = peers.length;
    sendBuffers = new double[n][64];
    sendLengths = new int[n];
    receiveBuffers = new double[n][64];
    receiveLengths = new int[n];
    sends = new Request[n];
    receives = new Request[n];
    posted = new boolean[n];
    received = new boolean[n];
    for (int i = 0; i < n; i++) {
      sends[i] = comm.newRequest();
      receives[i] = comm.newRequest();
    }
  }

  /** The index of rank {@code rank} for {@link #reserve}: {@link #LOCAL} for this rank. */
  int peerIndex(int rank) {
    return rank == comm.rank() ? LOCAL : Arrays.binarySearch(peers, rank);
  }

  /** Starts a round: every buffer empty. */
  void clear() {
    Arrays.fill(sendLengths, 0);
    localLength = 0;
  }

  /**
   * Makes room for {@code length} values at the end of peer {@code peer}'s buffer ({@link #LOCAL}
   * for this rank) and returns where they go in {@link #buffer}.
   */
  int reserve(int peer, int length) {
    double[] buffer = buffer(peer);
    int at = peer == LOCAL ? localLength : sendLengths[peer];
    if (buffer.length < at + length) {
      buffer = Arrays.copyOf(buffer, Math.max(2 * buffer.length, at + length));
      if (peer == LOCAL) {
        local = buffer;
      } else {
        sendBuffers[peer] = buffer;
      }
    }
    if (peer == LOCAL) {
      localLength = at + length;
    } else {
      sendLengths[peer] = at + length;
    }
    return at;
  }

  /** Peer {@code peer}'s buffer ({@link #LOCAL}: this rank's); replaced when it grows. */
  double[] buffer(int peer) {
    return peer == LOCAL ? local : sendBuffers[peer];
  }

  /** Sends every peer its buffer. */
  void post() {
    for (int i = 0; i < peers.length; i++) {
      sends[i] = comm.isend(sends[i], sendBuffers[i], 0, sendLengths[i], peers[i], tag);
      posted[i] = false;
      received[i] = false;
    }
  }

  /** Whether every peer's message has arrived and every send has completed; never blocks. */
  boolean poll() {
    boolean all = true;
    for (int i = 0; i < peers.length; i++) {
      all &= poll(i);
    }
    for (Request send : sends) {
      all &= send.test();
    }
    return all;
  }

  /** {@link #poll} until true. */
  void waitAll() {
    while (!poll()) {
      Thread.onSpinWait();
    }
  }

  private boolean poll(int i) {
    if (received[i]) {
      return true;
    }
    if (!posted[i]) {
      int length = comm.iprobe(peers[i], tag);
      if (length < 0) {
        return false;
      }
      if (receiveBuffers[i].length < length) {
        receiveBuffers[i] = new double[Math.max(length, 2 * receiveBuffers[i].length)];
      }
      receives[i] = comm.irecv(receives[i], receiveBuffers[i], 0, length, peers[i], tag);
      posted[i] = true;
    }
    if (receives[i].test()) {
      receiveLengths[i] = receives[i].length();
      received[i] = true;
    }
    return received[i];
  }

  /** Sources of a round: every peer and this rank. */
  int sources() {
    return peers.length + 1;
  }

  /** The {@code k}th source's records in rank order (this rank's own in its place). */
  double[] source(int k) {
    int mine = localPosition();
    return k == mine ? local : receiveBuffers[k < mine ? k : k - 1];
  }

  /** The length of the {@code k}th source's records. */
  int sourceLength(int k) {
    int mine = localPosition();
    return k == mine ? localLength : receiveLengths[k < mine ? k : k - 1];
  }

  private int localPosition() {
    int position = Arrays.binarySearch(peers, comm.rank());
    return -position - 1;
  }
}
