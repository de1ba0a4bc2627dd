package org.metope.test.bench;

/**
 * The counts of one rank, shared by its world communicator and every duplicate of it: messages
 * sent and their payload per {@link TrafficKind}, collective calls and the values they carry, the
 * peers sent to, and the largest tag used. Written only by the rank's own thread (the harness runs
 * one task thread per rank), so plain fields suffice; read after the rank has finished.
 */
final class RankTraffic {
  private static final int KINDS = TrafficKind.values().length;

  final long[] messages = new long[KINDS];
  final long[] bytes = new long[KINDS];
  final long[] collectives = new long[KINDS];
  final long[] collectiveBytes = new long[KINDS];
  final boolean[] peers;
  int maxTag = -1;
  long largestMessageBytes;

  RankTraffic(int size) {
    this.peers = new boolean[size];
  }

  void send(TrafficKind kind, int peer, int tag, int length) {
    long b = 8L * length;
    messages[kind.ordinal()]++;
    bytes[kind.ordinal()] += b;
    peers[peer] = true;
    if (tag > maxTag) {
      maxTag = tag;
    }
    if (b > largestMessageBytes) {
      largestMessageBytes = b;
    }
  }

  void collective(TrafficKind kind, long payloadBytes) {
    collectives[kind.ordinal()]++;
    collectiveBytes[kind.ordinal()] += payloadBytes;
  }

  int peerCount() {
    int n = 0;
    for (boolean p : peers) {
      if (p) {
        n++;
      }
    }
    return n;
  }
}
