package org.metope.bvals.channel;

import java.io.PrintStream;

/**
 * Logging of every send and receive, switched on by the environment variable {@value #VARIABLE}
 * {@code =1} (or {@code true}), read once into a {@code static final}: when off, the calls in
 * {@link CommBuffer} are compiled away. Each event is one line on standard error:
 *
 * <pre>
 * metope-comm rank=0 op=send kind=BOUNDARY_VALUES key=ChannelKey[senderGid=0, receiverGid=1,
 *     fieldId=2, element=14] peer=1 tag=3 length=64 seq=1
 * </pre>
 *
 * (one line in the output). {@code op} is {@code send}, {@code send-null}, {@code recv} or {@code
 * recv-null}; {@code length} is the message length (0 for null); {@code seq} the channel's
 * sequence number after the event on this end; {@code peer} the other rank (this rank for a
 * same-rank channel, whose {@code tag} is then unused, normally -1). A channel travelling in a
 * {@link CoalescedMessage} logs its own events as above, and the message logs one more line when
 * it goes out or comes in:
 *
 * <pre>
 * metope-comm rank=0 op=send-message kind=BOUNDARY_VALUES peer=1 sendingPartition=0 tag=0
 *     length=25867 seq=1
 * </pre>
 */
public final class CommTrace {
  /** The environment variable that turns tracing on. */
  public static final String VARIABLE = "METOPE_COMM_TRACE";

  /** Whether tracing is on for this JVM. */
  public static final boolean ENABLED = isOn(System.getenv(VARIABLE));

  private CommTrace() {}

  /** Whether {@code value} of {@value #VARIABLE} means on: {@code 1} or {@code true}. */
  static boolean isOn(String value) {
    return value != null && (value.trim().equals("1") || value.trim().equalsIgnoreCase("true"));
  }

  /** The trace line of one event. */
  static String line(int rank, String op, ChannelKind kind, ChannelKey key, int peer, int tag,
      int length, long sequence) {
    return "metope-comm rank=" + rank + " op=" + op + " kind=" + kind + " key=" + key + " peer="
        + peer + " tag=" + tag + " length=" + length + " seq=" + sequence;
  }

  /** The trace line of one coalesced message going out ({@code send-message}) or in. */
  static String messageLine(int rank, String op, BufferGroup group, int tag, int length,
      long sequence) {
    return "metope-comm rank=" + rank + " op=" + op + " kind=" + group.kind() + " peer="
        + group.peerRank() + " sendingPartition=" + group.partition() + " tag=" + tag
        + " length=" + length + " seq=" + sequence;
  }

  /** Prints the line of one coalesced message to standard error. */
  static void logMessage(int rank, String op, BufferGroup group, int tag, int length,
      long sequence) {
    System.err.println(messageLine(rank, op, group, tag, length, sequence));
  }

  /** Prints the line of one event to standard error. */
  static void log(int rank, String op, ChannelKind kind, ChannelKey key, int peer, int tag,
      int length, long sequence) {
    PrintStream err = System.err;
    err.println(line(rank, op, kind, key, peer, tag, length, sequence));
  }
}
