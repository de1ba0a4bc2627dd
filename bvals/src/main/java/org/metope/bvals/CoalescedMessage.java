package org.metope.bvals;

import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * The channels of one {@link BufferGroup} that cross ranks, travelling as one message per exchange
 * (newer Parthenon's "coalesced buffers"): every channel of one kind from one partition of the
 * sending rank to one receiving rank. Each channel keeps its own {@link CommBuffer} and its five
 * states for its users; only the transport is shared.
 *
 * <h2>The message is a slice of the arena, so nothing is copied</h2>
 *
 * <p>The message owns one slice of its group's arena region, and each member channel's buffer is
 * a part of it. The load kernel writes straight into the message and the receive lands where the
 * unload kernel reads:
 *
 * <pre>
 * | fingerprint | sequence | count | flag 0 .. flag N-1 | channel 0 | .. | channel N-1 |
 *   ^ message start                                     ^ start + HEADER + N
 * </pre>
 *
 * <p>{@code flag i} is 1 when channel {@code i} sent data and 0 when it sent null, so the null
 * state of each channel travels inside the message; a null channel's part is sent but not read.
 * The {@code fingerprint} (a 52-bit hash of the member keys and lengths, exact in a double) and
 * the {@code sequence} (messages sent so far) are checked by the receiver on every message: a
 * layout the two ranks disagree on, or a lost or repeated message, stops the run with both values
 * instead of scrambling ghost cells.
 *
 * <h2>Member order: computed on both ranks, not exchanged</h2>
 *
 * <p>Members are ordered by {@link ChannelKey}. The sender lists the channels its partition sends
 * to the peer; the receiver lists the channels it receives from blocks of that partition (it
 * knows every block's rank and partition, {@link PartitionRule}). Both lists name the same
 * channels with the same keys, so both ranks build the same layout without a setup message; the
 * fingerprint proves it on the first message.
 *
 * <h2>Protocol</h2>
 *
 * <ul>
 *   <li>Sender: {@link CommBuffer#send()}/{@link CommBuffer#sendNull()} mark a member ready and
 *       write its flag; the call that makes the last member ready writes the header and starts the
 *       send of the whole message. When the send completes, every member returns to {@code STALE}
 *       ({@link #trySendComplete()}).
 *   <li>Receiver: the receive is posted once every member is {@code STALE} ({@link #tryPost()}), so
 *       a new message never overwrites data a partition has not unloaded yet. When it completes,
 *       every member becomes {@code RECEIVED} or {@code RECEIVED_NULL} at once ({@link
 *       #tryComplete()}).
 * </ul>
 *
 * <p>Threads: a receiving message may hold channels of several receiving partitions, whose tasks
 * may run on different threads, so every method holds this message's monitor. Nothing here
 * allocates after construction.
 */
final class CoalescedMessage {
  /** Doubles before the flags: fingerprint, sequence, count. */
  static final int HEADER = 3;
  private static final int FINGERPRINT = 0;
  private static final int SEQUENCE = 1;
  private static final int COUNT = 2;
  private static final long FINGERPRINT_MASK = (1L << 52) - 1;

  private final BufferGroup group;
  private final Communicator communicator;
  private final int tag;
  private final CommBuffer[] members;
  private final double fingerprint;
  private final ObjectPool.Owner<BufferSlice> owner;
  private final BufferSlice slice;
  private final Request request;
  private final boolean sender;
  private final int rank;

  private int ready;
  private int stale;
  private boolean inFlight;
  private long sequence;

  /**
   * A message over {@code owner}'s slice, which must hold {@link #length(List)} elements.
   *
   * @param group the members' group: peer rank, sending partition, kind, and this rank's role
   * @param members the member channels in message order (by key), all of {@code group}
   * @param communicator the kind's message communicator ({@link FieldCommunicators#messages})
   * @param owner the lease of the message's slice, released by {@link #release()}
   */
  CoalescedMessage(BufferGroup group, List<CommBuffer> members, Communicator communicator,
      ObjectPool.Owner<BufferSlice> owner) {
    if (group.role() == ChannelRole.LOCAL || members.isEmpty()) {
      throw new IllegalArgumentException("a message needs cross-rank members: group=" + group
          + ", members=" + members.size());
    }
    if (group.partition() > Communicator.MAX_TAG) {
      throw new IllegalArgumentException("sending partition above the largest tag: partition="
          + group.partition() + ", maxTag=" + Communicator.MAX_TAG);
    }
    this.group = group;
    this.members = members.toArray(new CommBuffer[0]);
    this.communicator = communicator;
    this.tag = group.partition();
    this.owner = owner;
    this.slice = owner.get();
    if (slice.length() != length(members)) {
      throw new IllegalArgumentException("message slice of the wrong length: sliceLength="
          + slice.length() + ", expected=" + length(members) + ", group=" + group);
    }
    this.fingerprint = fingerprint(members);
    this.request = communicator.newRequest();
    this.sender = group.role() == ChannelRole.SENDER;
    this.rank = communicator.rank();
    this.stale = this.members.length;
  }

  /** Elements of the message of {@code members}: header, flags and every member's buffer. */
  static int length(List<CommBuffer> members) {
    long n = HEADER + (long) members.size();
    for (CommBuffer b : members) {
      n += b.length();
    }
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("coalesced message too long for an array: length=" + n);
    }
    return (int) n;
  }

  /** Where member {@code slot}'s buffer starts, relative to the message start. */
  static int memberStart(List<CommBuffer> members, int slot) {
    int at = HEADER + members.size();
    for (int i = 0; i < slot; i++) {
      at += members.get(i).length();
    }
    return at;
  }

  /**
   * A 52-bit FNV-1a hash of both ranks, the kind and every member's key and length in order; the
   * same on the sending and the receiving rank when they agree on the layout.
   */
  static double fingerprint(List<CommBuffer> members) {
    long h = 0xcbf29ce484222325L;
    ChannelSpec first = members.get(0).spec();
    h = mix(h, first.senderRank());
    h = mix(h, first.receiverRank());
    h = mix(h, first.kind().ordinal());
    for (CommBuffer b : members) {
      ChannelKey k = b.key();
      h = mix(mix(mix(mix(mix(h, k.senderGid()), k.receiverGid()), k.fieldId()), k.element()),
          b.length());
    }
    return (double) (h & FINGERPRINT_MASK);
  }

  private static long mix(long h, int value) {
    return (h ^ (value & 0xffffffffL)) * 0x100000001b3L;
  }

  /** Sender: member {@code slot} is ready; the last one starts the send of the whole message. */
  synchronized void memberSent(int slot, boolean hasData) {
    double[] a = slice.array();
    int o = slice.offset();
    a[o + HEADER + slot] = hasData ? 1.0 : 0.0;
    if (++ready < members.length) {
      return;
    }
    ready = 0;
    long seq = ++sequence;
    a[o + FINGERPRINT] = fingerprint;
    a[o + SEQUENCE] = seq;
    a[o + COUNT] = members.length;
    communicator.isend(request, a, o, slice.length(), group.peerRank(), tag);
    inFlight = true;
    slice.arena().beginFlight();
    if (CommTrace.ENABLED) {
      CommTrace.logMessage(rank, "send-message", group, tag, slice.length(), seq);
    }
  }

  /**
   * Sender: {@code true} once the message's send has completed, which returns every member to
   * {@code STALE}; {@code false} while it is in flight or not all members are ready yet.
   */
  synchronized boolean trySendComplete() {
    if (!inFlight || !request.test()) {
      return false;
    }
    finishSend();
    return true;
  }

  /** Sender: blocks until the last send has completed (quiescent points only). */
  synchronized void awaitSend() {
    if (sender && inFlight) {
      request.waitFor();
      finishSend();
    }
  }

  private void finishSend() {
    inFlight = false;
    slice.arena().endFlight();
    for (CommBuffer m : members) {
      m.messageSent();
    }
  }

  /**
   * Receiver: makes sure the receive is posted; {@code false} while a member still holds data
   * that was not staled (the message would overwrite it).
   */
  synchronized boolean tryPost() {
    if (inFlight) {
      return true;
    }
    if (stale < members.length) {
      return false;
    }
    communicator.irecv(request, slice.array(), slice.offset(), slice.length(), group.peerRank(),
        tag);
    inFlight = true;
    slice.arena().beginFlight();
    return true;
  }

  /**
   * Receiver: posts the receive when possible and, once the message is here, checks its header
   * and makes every member {@code RECEIVED} or {@code RECEIVED_NULL}. Returns whether this call
   * completed the message; either way, read the members' states for the answer.
   */
  synchronized boolean tryComplete() {
    if (!tryPost() || !request.test()) {
      return false;
    }
    inFlight = false;
    slice.arena().endFlight();
    double[] a = slice.array();
    int o = slice.offset();
    long seq = ++sequence;
    checkHeader(request.length(), a, o, seq);
    stale = 0;
    for (int i = 0; i < members.length; i++) {
      members[i].messageReceived(a[o + HEADER + i] != 0.0);
    }
    if (CommTrace.ENABLED) {
      CommTrace.logMessage(rank, "recv-message", group, tag, slice.length(), seq);
    }
    return true;
  }

  private void checkHeader(int received, double[] a, int o, long seq) {
    if (received != slice.length() || a[o + COUNT] != members.length) {
      throw corrupted("coalesced message of another length: messageLength=" + received
          + ", expectedLength=" + slice.length() + ", channels=" + a[o + COUNT]
          + ", expectedChannels=" + members.length);
    }
    if (a[o + FINGERPRINT] != fingerprint) {
      throw corrupted("sender and receiver disagree on the coalesced message layout: fingerprint="
          + (long) a[o + FINGERPRINT] + ", expectedFingerprint=" + (long) fingerprint);
    }
    if (a[o + SEQUENCE] != seq) {
      throw corrupted("coalesced message out of sequence: sequence=" + (long) a[o + SEQUENCE]
          + ", expectedSequence=" + seq);
    }
  }

  /** Receiver: a member was staled; when all are, the next receive may be posted. */
  synchronized void memberStaled() {
    stale++;
  }

  /** Whether a send or a posted receive is not yet known to be complete. */
  synchronized boolean isInFlight() {
    return inFlight;
  }

  /**
   * Gives the message's slice back to its pool, as before rebuilding after a remesh.
   *
   * @throws IllegalStateException while the message is in flight
   */
  synchronized void release() {
    if (inFlight) {
      throw corrupted("release() while the message is in flight");
    }
    owner.release();
  }

  /** The group of the members. */
  BufferGroup group() {
    return group;
  }

  /** The MPI tag: the sending partition. */
  int tag() {
    return tag;
  }

  /** Number of member channels. */
  int size() {
    return members.length;
  }

  /** The member in message slot {@code slot}. */
  CommBuffer member(int slot) {
    return members[slot];
  }

  /** The message length in elements (header, flags and buffers). */
  int length() {
    return slice.length();
  }

  /** The fingerprint of the layout, as sent in the header. */
  double fingerprint() {
    return fingerprint;
  }

  /** Messages sent or received so far. */
  synchronized long sequence() {
    return sequence;
  }

  /** One line for channel dumps: every field as {@code name=value}. */
  synchronized String describe() {
    return "message " + group.kind() + " role=" + group.role() + " peer=" + group.peerRank()
        + " sendingPartition=" + group.partition() + " tag=" + tag + " channels=" + members.length
        + " length=" + slice.length() + " inFlight=" + inFlight + " ready=" + ready + " stale="
        + stale + " seq=" + sequence + " fingerprint=" + (long) fingerprint;
  }

  private IllegalStateException corrupted(String what) {
    return new IllegalStateException(what + ": rank=" + rank + ", group=" + group + ", tag="
        + tag);
  }

  @Override
  public String toString() {
    return "CoalescedMessage[" + describe() + "]";
  }
}
