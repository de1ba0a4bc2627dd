package org.metope.bvals.channel;

import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * The channels of one {@link BufferGroup} that cross ranks, travelling as one message per exchange
 * (newer Parthenon's "coalesced buffers"): every channel of one kind from one partition of the
 * sending rank to one receiving rank. Each channel keeps its own {@link CommBuffer} and its five
 * states for its users; only the transport is shared.
 *
 * <h2>The message is a slice of the arena</h2>
 *
 * <p>The message owns one slice of its group's arena region, and each member channel's buffer is
 * a part of it (its <em>home</em>). The load kernel writes straight into the message and the
 * receive lands where the unload kernel reads. Where the communicator prefers message buffers
 * (the MPI device) the wire layout below is written into a buffer of the message's own instead,
 * one bulk copy per run of them that lies back to back in the slice (the whole message when no
 * member sends null), and read back from it; elsewhere the slice is the wire ({@link
 * MessageStaging}):
 *
 * <pre>
 * slice:  | fingerprint | sequence | count | flag words | home 0 | .. | home N-1 |
 *           ^ message start                             ^ start + HEADER + flagWords(N)
 * wire:   | fingerprint | sequence | count | flag words | data of the flagged members |
 * </pre>
 *
 * <p>Bit {@code i % 52} of flag word {@code i / 52} is set when channel {@code i} sent data and
 * clear when it sent null (52 bits, so every word is an integer a double holds exactly). The null
 * state of each channel travels inside the message, and only the flagged members' data travel:
 * an unallocated or negligible sparse member costs one bit on the wire, where per channel it costs
 * an empty message. Both ranks know every member's length, so the flags are the whole
 * directory. The sender packs the flagged members' data towards the flags ({@link
 * #memberSent}), the receiver takes the shorter message into its full slice (or buffer) and moves
 * each flagged member back to its home ({@link #tryComplete}); in the slice a member after the
 * first null one moves, the others do not. Dense members come first (see {@link CoalescedMessageBuilder}), so they move
 * only when a dense member itself sent null (all zero with sparse on).
 * The {@code fingerprint} (a 52-bit hash of the member keys and lengths, exact in a double) and
 * the {@code sequence} (messages sent so far) are checked by the receiver on every message: a
 * layout the two ranks disagree on, or a lost or repeated message, stops the run with both values
 * instead of scrambling ghost cells.
 *
 * <h2>Member order: computed on both ranks, not exchanged</h2>
 *
 * <p>Members are ordered dense first, then by {@link ChannelKey}. The sender lists the channels its
 * partition sends
 * to the peer; the receiver lists the channels it receives from blocks of that partition (it
 * knows every block's rank and partition, {@code PartitionRule}). Both lists name the same
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
 * <p>Memory: the slice has room for every member, sparse or not, on both ranks; only the traffic
 * follows allocation (docs/ARCHITECTURE.md, "Coalesced messages", says why).
 *
 * <p>Threads: a receiving message may hold channels of several receiving partitions, whose tasks
 * may run on different threads, so every method holds this message's monitor. Nothing here
 * allocates after construction.
 */
public final class CoalescedMessage {
  /** Doubles before the flags: fingerprint, sequence, count. */
  static final int HEADER = 3;
  /** Member flags per flag word: the bits of a double's mantissa, so a word is exact. */
  static final int FLAGS_PER_WORD = 52;
  private static final int FINGERPRINT = 0;
  private static final int SEQUENCE = 1;
  private static final int COUNT = 2;
  private static final long FINGERPRINT_MASK = (1L << 52) - 1;

  private final BufferGroup group;
  private final Communicator communicator;
  private final int tag;
  private final CommBuffer[] members;
  /** Each member's buffer length. */
  private final int[] lengths;
  /** Where each member's home starts, relative to the message start. */
  private final int[] homes;
  /** Each member's flag: set by its send (sender) or read from the message (receiver). */
  private final boolean[] hasData;
  /** Number of flag words after the header. */
  private final int flagWords;
  private final double fingerprint;
  private final ObjectPool.Owner<BufferSlice> owner;
  private final BufferSlice slice;
  private final Request request;
  private final MessageStaging staging;
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
   * @param members the member channels in message order ({@link
   *     CoalescedMessageBuilder#MEMBER_ORDER}), all of {@code group}
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
    this.lengths = new int[this.members.length];
    this.homes = new int[this.members.length];
    this.hasData = new boolean[this.members.length];
    this.flagWords = flagWords(this.members.length);
    for (int slot = 0; slot < lengths.length; slot++) {
      lengths[slot] = this.members[slot].length();
      homes[slot] = memberStart(members, slot);
    }
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
    this.staging = new MessageStaging(communicator, slice.length());
    this.sender = group.role() == ChannelRole.SENDER;
    this.rank = communicator.rank();
    this.stale = this.members.length;
  }

  /**
   * Elements of the slice of {@code members}: header, flags and every member's buffer (the
   * longest message, when every member sends data).
   */
  static int length(List<CommBuffer> members) {
    long n = HEADER + (long) flagWords(members.size());
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
    int at = HEADER + flagWords(members.size());
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

  /**
   * Sender: member {@code slot} is ready; the last one writes header and flags into the slice,
   * packs them and the flagged members' data onto the wire ({@link #pack}) and starts the send.
   * Packing in the slice overwrites homes, which the next load fills again.
   */
  synchronized void memberSent(int slot, boolean hasData) {
    this.hasData[slot] = hasData;
    if (++ready < members.length) {
      return;
    }
    ready = 0;
    double[] a = slice.array();
    int o = slice.offset();
    long seq = ++sequence;
    a[o + FINGERPRINT] = fingerprint;
    a[o + SEQUENCE] = seq;
    a[o + COUNT] = members.length;
    writeFlags(a, o);
    int end = pack(a, o);
    staging.send(request, a, o, end, group.peerRank(), tag);
    inFlight = true;
    slice.arena().beginFlight();
    if (CommTrace.ENABLED) {
      CommTrace.logMessage(rank, "send-message", group, tag, end, seq);
    }
  }

  /**
   * Puts header, flags and the flagged members' data on the wire back to back, one copy per run
   * of them that lies back to back in the slice too (all of it, when no member sent null), and
   * returns the message's length. A run moves towards the start of the slice, never over a later
   * run, so in-slice packing needs no order beyond this one.
   */
  private int pack(double[] a, int o) {
    int runHome = 0;
    int runAt = 0;
    int runLength = HEADER + flagWords;
    int end = runLength;
    for (int i = 0; i < members.length; i++) {
      if (!hasData[i]) {
        continue;
      }
      if (homes[i] != runHome + runLength) {
        staging.put(a, o, runHome, runAt, runLength);
        runHome = homes[i];
        runAt = end;
        runLength = 0;
      }
      runLength += lengths[i];
      end += lengths[i];
    }
    staging.put(a, o, runHome, runAt, runLength);
    return end;
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
    staging.post(request, slice.array(), slice.offset(), slice.length(), group.peerRank(), tag);
    inFlight = true;
    slice.arena().beginFlight();
    return true;
  }

  /**
   * Receiver: posts the receive when possible and, once the message is here, checks its header,
   * moves every flagged member's data to its home, and makes every member {@code RECEIVED} or
   * {@code RECEIVED_NULL}. Returns whether this call completed the message; either way, read the
   * members' states for the answer.
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
    int received = request.length();
    staging.arrived(a, o, received);
    staging.take(a, o, 0, 0, Math.min(received, HEADER + flagWords));
    checkHeader(received, a, o, seq);
    unpack(a, o, received);
    stale = 0;
    for (int i = 0; i < members.length; i++) {
      members[i].messageReceived(hasData[i]);
    }
    if (CommTrace.ENABLED) {
      CommTrace.logMessage(rank, "recv-message", group, tag, received, seq);
    }
    return true;
  }

  /**
   * Moves the flagged members' data from the wire behind the flags to their homes, one copy per
   * run of members whose homes lie back to back, last run first, so that in the slice no data are
   * overwritten before they moved (a home never starts before the data's packed place).
   */
  private void unpack(double[] a, int o, int received) {
    int end = received;
    int runHome = 0;
    int runAt = 0;
    int runLength = 0;
    for (int i = members.length - 1; i >= 0; i--) {
      if (!hasData[i]) {
        continue;
      }
      end -= lengths[i];
      if (runLength > 0 && homes[i] + lengths[i] != runHome) {
        staging.take(a, o, runAt, runHome, runLength);
        runLength = 0;
      }
      runHome = homes[i];
      runAt = end;
      runLength += lengths[i];
    }
    if (runLength > 0) {
      staging.take(a, o, runAt, runHome, runLength);
    }
  }

  /** Number of flag words for {@code members} members. */
  static int flagWords(int members) {
    return (members + FLAGS_PER_WORD - 1) / FLAGS_PER_WORD;
  }

  private void writeFlags(double[] a, int o) {
    for (int w = 0; w < flagWords; w++) {
      long bits = 0;
      int first = w * FLAGS_PER_WORD;
      for (int i = first; i < Math.min(members.length, first + FLAGS_PER_WORD); i++) {
        if (hasData[i]) {
          bits |= 1L << (i - first);
        }
      }
      a[o + HEADER + w] = bits;
    }
  }

  /** Reads the flag words into {@link #hasData}; {@code false} when a word is no flag word. */
  private boolean readFlags(double[] a, int o) {
    for (int w = 0; w < flagWords; w++) {
      double word = a[o + HEADER + w];
      long bits = (long) word;
      if (bits != word || bits < 0 || bits >= 1L << FLAGS_PER_WORD) {
        return false;
      }
      int first = w * FLAGS_PER_WORD;
      for (int i = first; i < Math.min(members.length, first + FLAGS_PER_WORD); i++) {
        hasData[i] = (bits & (1L << (i - first))) != 0;
      }
    }
    return true;
  }

  /** Length of the message the flags in {@link #hasData} describe: header, flags, their data. */
  private int packedLength() {
    int n = HEADER + flagWords;
    for (int i = 0; i < members.length; i++) {
      if (hasData[i]) {
        n += lengths[i];
      }
    }
    return n;
  }

  private void checkHeader(int received, double[] a, int o, long seq) {
    if (received < HEADER + flagWords || a[o + COUNT] != members.length || !readFlags(a, o)) {
      throw corrupted("coalesced message without the expected flags: messageLength=" + received
          + ", channels=" + (received < HEADER ? "?" : a[o + COUNT]) + ", expectedChannels="
          + members.length);
    }
    double sentFingerprint = a[o + FINGERPRINT];
    if (sentFingerprint != fingerprint) {
      throw corrupted("sender and receiver disagree on the coalesced message layout: fingerprint="
          + (long) sentFingerprint + ", expectedFingerprint=" + (long) fingerprint);
    }
    double sentSequence = a[o + SEQUENCE];
    if (sentSequence != seq) {
      throw corrupted("coalesced message out of sequence: sequence=" + (long) sentSequence
          + ", expectedSequence=" + seq);
    }
    if (received != packedLength()) {
      throw corrupted("coalesced message of another length than its flags say: messageLength="
          + received + ", expectedLength=" + packedLength() + ", sliceLength="
          + slice.length());
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
  public BufferGroup group() {
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

  /** The slice length in elements (header, flags and every member's home). */
  public int length() {
    return slice.length();
  }

  /** The fingerprint of the layout, as sent in the header. */
  public double fingerprint() {
    return fingerprint;
  }

  /** Messages sent or received so far. */
  public synchronized long sequence() {
    return sequence;
  }

  /** One line for channel dumps: every field as {@code name=value}. */
  public synchronized String describe() {
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
