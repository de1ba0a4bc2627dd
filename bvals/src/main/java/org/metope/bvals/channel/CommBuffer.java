package org.metope.bvals.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Supplier;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * One communication channel's buffer and state (Parthenon's {@code CommBuffer}): the five {@link
 * BufferState}s, the buffer (a pooled {@link BufferSlice}, allocated by the function given at
 * construction), and the MPI send or receive that moves it.
 *
 * <h2>Same rank or not, used the same way</h2>
 *
 * <p>A channel between two ranks has a {@link ChannelRole#SENDER} object on the sending rank and a
 * {@link ChannelRole#RECEIVER} object on the receiving rank, talking through the field's
 * communicator with the channel's tag. A channel within one rank is one {@link
 * ChannelRole#LOCAL} object shared by the sending and the receiving cache: the buffer the sender
 * fills is the one the receiver reads, and no message is sent. The calls and their results are
 * the same in both cases:
 *
 * <pre>
 * sender, each stage:   if (isAvailableForWrite()) { fill buffer(); send() or sendNull(); }
 * receiver, each stage: tryStartReceive();  ...  while (!tryReceive()) { other work }
 *                       read buffer() if RECEIVED, defaults if RECEIVED_NULL;  stale();
 * </pre>
 *
 * <h2>Transitions</h2>
 *
 * <ul>
 *   <li>{@link #send()}: needs a writable buffer ({@link #isAvailableForWrite()}); to {@code
 *       SENDING}, or {@code SENDING_NULL} when unallocated (as {@link #sendNull()}).
 *   <li>{@link #sendNull()}: same precondition; to {@code SENDING_NULL}, a zero-length message.
 *   <li>{@link #tryStartReceive()}: receiving side, before the data were received or after they
 *       were staled; posts the receive (a same-rank channel has nothing to post). A sparse
 *       receiver ({@link ChannelSpec#doSparseAllocation()}) first probes: no message yet gives
 *       {@code false}; an empty message frees the buffer; a full one allocates it.
 *   <li>{@link #tryReceive()}: receiving side; {@code true} once {@code RECEIVED} or {@code
 *       RECEIVED_NULL} (and again until staled), {@code false} while the message has not arrived.
 *   <li>{@link #stale()}: receiving side, from {@code RECEIVED}/{@code RECEIVED_NULL} to {@code
 *       STALE}.
 * </ul>
 *
 * <p>Everything else (sending twice, sending from a receiver, receiving on a sender, staling what
 * was not received, posting a receive over data not yet staled) is misuse and throws {@link
 * IllegalStateException} naming the key, role and state.
 *
 * <h2>Alone or in a coalesced message</h2>
 *
 * <p>A cross-rank channel either sends its own message, or travels with the other channels of its
 * group in one {@link CoalescedMessage} ({@link #joinMessage}, at build time). The calls and
 * states above are the same; only when the data move differs: a member's {@code send()} marks it
 * ready and the message goes out with the last member, a member's receive completes when the
 * whole message arrives, and its receive is posted only once every member of the message is
 * {@code STALE}. A member's buffer is its part of the message's slice, always allocated; only the
 * members that send data put it on the wire, and a sparse receiver is allocated on the flag.
 * A message of its own travels from and lands in the slice, or, on a communicator that prefers
 * message buffers (the MPI device), in a buffer of the channel's own that the slice is copied
 * into and out of ({@link MessageStaging}); {@link PeerTransfer} starts, tests and completes
 * such a message.
 *
 * <h2>Sequence numbers</h2>
 *
 * <p>Each send increments {@link #sendSequence()} and each completed receive {@link
 * #receiveSequence()}; a same-rank object has both. They never reset, so at a point where every
 * exchange is complete the receiver's count equals the sender's; channel dumps (the report of a
 * stalled or aborted step) show both, which is how a lost or extra message is found.
 *
 * <h2>Threads</h2>
 *
 * <p>A same-rank object may be sent from one task thread and received on another: the state is
 * volatile and written after the buffer, so a receiver that sees {@code SENDING} sees the data.
 * It is written with release semantics (a plain store on x86, where a volatile store adds a
 * fence): that order is all the protocol needs, since each transition is made by one side after
 * it read the state the other side left, and never two writers at once.
 * A cross-rank object is used by one thread at a time, as its {@link Request} requires; only a
 * coalesced member's state may be set by the thread of another partition that completed the
 * message, after the data arrived (the message's monitor orders the rest).
 *
 * <p>Steady-state calls allocate nothing: the request is created once, and allocation and freeing
 * go through an {@link ObjectPool}.
 */
public final class CommBuffer {
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(CommBuffer.class, "state", BufferState.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ChannelSpec spec;
  private final ChannelKey key;
  private final ChannelRole role;
  private final Communicator communicator;
  private final int rank;
  private final int peer;
  private final int tag;
  private final int length;
  private final boolean sparse;
  private final Supplier<ObjectPool.Owner<BufferSlice>> allocator;
  /** The messages to or from the peer; null on a same-rank channel. */
  private final PeerTransfer transfer;

  private ObjectPool.Owner<BufferSlice> owner;
  private BufferSlice slice;
  private volatile BufferState state = BufferState.STALE;
  private long sendSequence;
  private long receiveSequence;
  /** The coalesced message this channel travels in, or null when it sends its own. */
  private CoalescedMessage message;
  private int slot;

  /**
   * A stale, unallocated channel buffer.
   *
   * @param spec the channel
   * @param communicator the field's communicator for this kind ({@link FieldCommunicators}); its
   *     rank decides the role: the sender's rank, the receiver's, or both for a same-rank channel
   * @param allocator returns a fresh owner of a slice of {@code spec.length()} elements, normally
   *     {@code pools.pool(group, length)::get}
   */
  public CommBuffer(ChannelSpec spec, Communicator communicator,
      Supplier<ObjectPool.Owner<BufferSlice>> allocator) {
    if (spec == null || communicator == null || allocator == null) {
      throw new IllegalArgumentException("spec, communicator and allocator must not be null: "
          + "spec=" + spec + ", communicator=" + communicator + ", allocator=" + allocator);
    }
    this.spec = spec;
    this.key = spec.key();
    this.communicator = communicator;
    this.rank = communicator.rank();
    this.role = spec.roleOn(rank);
    this.peer = role == ChannelRole.SENDER ? spec.receiverRank() : spec.senderRank();
    this.tag = spec.tag();
    this.length = spec.length();
    this.sparse = spec.doSparseAllocation();
    this.allocator = allocator;
    this.transfer = role == ChannelRole.LOCAL ? null
        : new PeerTransfer(communicator, peer, tag, length);
  }

  /**
   * The buffer: {@code buffer().array()[buffer().offset() + i]}, {@code 0 <= i < length()}. Read
   * the array and offset again each step: the arena may move them between steps.
   *
   * @throws IllegalStateException when unallocated
   */
  public BufferSlice buffer() {
    BufferSlice s = slice;
    if (s == null) {
      throw misuse("buffer() of an unallocated channel");
    }
    return s;
  }

  /** Whether a buffer is allocated (Parthenon's {@code IsActive}). */
  public boolean isAllocated() {
    return slice != null;
  }

  /** Takes a buffer from the allocation function unless one is allocated already. */
  public void allocate() {
    if (owner != null) {
      return;
    }
    ObjectPool.Owner<BufferSlice> o = allocator.get();
    BufferSlice s = o.get();
    if (s.length() != length) {
      o.release();
      throw misuse("allocation function returned a slice of the wrong length: sliceLength="
          + s.length());
    }
    owner = o;
    slice = s;
  }

  /**
   * Gives the buffer back to its pool (nothing when unallocated).
   *
   * @throws IllegalStateException while a message on the buffer is in flight or its data wait to
   *     be received or read
   */
  public void free() {
    if (owner == null) {
      return;
    }
    if (role == ChannelRole.SENDER && transfer.pinsArena()) {
      sendCompleted();
    }
    if (transfer != null && transfer.pinsArena() || (message != null && message.isInFlight())) {
      throw misuse("free() while a message on the buffer is in flight");
    }
    BufferState s = state;
    if (s == BufferState.RECEIVED || (role == ChannelRole.LOCAL && s == BufferState.SENDING)) {
      throw misuse("free() while the buffer holds data not yet staled");
    }
    ObjectPool.Owner<BufferSlice> o = owner;
    owner = null;
    slice = null;
    o.release();
  }

  /**
   * Frees the buffer of a sending or same-rank channel whose field was deallocated, unless a
   * message on it is still in flight or a same-rank receiver has not unloaded its data yet;
   * returns whether it is unallocated now.
   */
  public boolean freeIfIdle() {
    if (owner == null) {
      return true;
    }
    if (role == ChannelRole.RECEIVER || message != null) {
      return false;
    }
    if (role == ChannelRole.SENDER && transfer.pinsArena()) {
      sendCompleted();
    }
    BufferState s = state;
    if (transfer != null && transfer.pinsArena() || (role == ChannelRole.LOCAL
        && (s == BufferState.SENDING || s == BufferState.RECEIVED))) {
      return false;
    }
    free();
    return true;
  }

  /**
   * The buffer, or null when unallocated, read once: for a receiving cache that refreshes its
   * offsets while the sending partition's task (another thread) may free a same-rank buffer that
   * holds no data.
   */
  public BufferSlice sliceOrNull() {
    return slice;
  }

  /**
   * Whether the sender may fill the buffer: the previous message was received and staled (same
   * rank) or its send request completed (across ranks; the state then returns to {@code STALE}).
   *
   * @throws IllegalStateException on a receiving buffer, which is never written by its owner
   */
  public boolean isAvailableForWrite() {
    BufferState s = state;
    if (role == ChannelRole.RECEIVER) {
      throw misuse("isAvailableForWrite() of a receiving channel");
    }
    if (s == BufferState.STALE) {
      return true;
    }
    if (message != null) {
      return message.trySendComplete();
    }
    return role == ChannelRole.SENDER && sendCompleted();
  }

  /**
   * Sends the buffer: state {@code SENDING}, and across ranks starts the send of the slice. An
   * unallocated buffer sends null instead (as {@link #sendNull()}).
   */
  public void send() {
    checkWritable(slice == null ? "sendNull()" : "send()");
    sendWritable(true);
  }

  /** Sends null: state {@code SENDING_NULL}, and across ranks a zero-length message. */
  public void sendNull() {
    checkWritable("sendNull()");
    sendWritable(false);
  }

  /**
   * {@link #send()} ({@code hasData}) or {@link #sendNull()} without asking again whether the
   * buffer may be written: for {@link ChannelVector#sendAll}, whose check has just seen it
   * {@code STALE}.
   */
  void sendWritable(boolean hasData) {
    BufferSlice s = hasData ? slice : null;
    boolean data = s != null;
    long seq = ++sendSequence;
    STATE.setRelease(this, data ? BufferState.SENDING : BufferState.SENDING_NULL);
    if (message != null) {
      message.memberSent(slot, data);
    } else if (role == ChannelRole.SENDER) {
      transfer.send(s);
    }
    if (CommTrace.ENABLED) {
      CommTrace.log(rank, data ? "send" : "send-null", spec.kind(), key, peer, tag,
          data ? length : 0, seq);
    }
  }

  private void checkWritable(String operation) {
    if (role == ChannelRole.RECEIVER) {
      throw misuse(operation + " on a receiving channel");
    }
    if (!isAvailableForWrite()) {
      throw misuse(operation + " before the previous message was "
          + (role == ChannelRole.LOCAL ? "received and staled" : "sent"));
    }
  }

  /** Whether the last send across ranks completed; the channel is {@code STALE} again if so. */
  private boolean sendCompleted() {
    if (!transfer.sendDone()) {
      return false;
    }
    STATE.setRelease(this, BufferState.STALE);
    return true;
  }

  /**
   * Blocks until this channel's last send across ranks has completed, leaving it {@code STALE}
   * (nothing for a receiving or same-rank channel). For quiescent points (before a remesh moves
   * buffers, at the end of a run), never for a step.
   */
  public void awaitSend() {
    if (message != null) {
      message.awaitSend();
    } else if (role == ChannelRole.SENDER && state != BufferState.STALE) {
      transfer.awaitSend();
      STATE.setRelease(this, BufferState.STALE);
    }
  }

  /**
   * Makes sure the receive is posted: {@code true} once it is (always on the same rank), {@code
   * false} when a sparse receiver has not seen its message yet, or a coalesced message cannot be
   * posted yet because another member still holds data. A coalesced member may already be {@code
   * RECEIVED}: the message may have been completed by another partition's receive task.
   *
   * @throws IllegalStateException on a sending channel, or while received data are not staled
   */
  public boolean tryStartReceive() {
    BufferState s = state;
    if (role == ChannelRole.SENDER) {
      throw misuse("tryStartReceive() on a sending channel");
    }
    boolean received = s == BufferState.RECEIVED || s == BufferState.RECEIVED_NULL;
    if (message != null) {
      return received || message.tryPost();
    }
    if (received) {
      throw misuse("tryStartReceive() before the received message was staled");
    }
    if (role == ChannelRole.LOCAL || transfer.receivePosted()) {
      return true;
    }
    if (!sparse) {
      allocate();
      transfer.postReceive(slice);
      return true;
    }
    int arrived = transfer.probe();
    if (arrived < 0) {
      return false;
    }
    if (arrived == 0) {
      free();
      transfer.postReceive(null);
    } else {
      if (arrived != length) {
        throw misuse("probed message length differs from the buffer length: messageLength="
            + arrived);
      }
      allocate();
      transfer.postReceive(slice);
    }
    return true;
  }

  /**
   * {@code true} once the message is here ({@code RECEIVED} or {@code RECEIVED_NULL}), {@code
   * false} while it is not: posts the receive first when needed, never blocks.
   *
   * @throws IllegalStateException on a sending channel
   */
  public boolean tryReceive() {
    BufferState s = state;
    if (s == BufferState.RECEIVED || s == BufferState.RECEIVED_NULL) {
      return true;
    }
    if (role == ChannelRole.SENDER) {
      throw misuse("tryReceive() on a sending channel");
    }
    if (role == ChannelRole.LOCAL) {
      if (s == BufferState.STALE) {
        return false;
      }
      finishReceive(s == BufferState.SENDING ? length : 0);
      return true;
    }
    if (message != null) {
      message.tryComplete();
      s = state;
      return s == BufferState.RECEIVED || s == BufferState.RECEIVED_NULL;
    }
    if (!tryStartReceive()) {
      return false;
    }
    int received = transfer.tryCompleteReceive();
    if (received < 0) {
      return false;
    }
    if (received != 0 && received != length) {
      throw misuse("received message length differs from the buffer length: messageLength="
          + received);
    }
    transfer.arrived(slice, received);
    finishReceive(received);
    return true;
  }

  private void finishReceive(int received) {
    long seq = ++receiveSequence;
    STATE.setRelease(this, received > 0 ? BufferState.RECEIVED : BufferState.RECEIVED_NULL);
    if (CommTrace.ENABLED) {
      CommTrace.log(rank, received > 0 ? "recv" : "recv-null", spec.kind(), key, peer, tag,
          received, seq);
    }
  }

  /**
   * Marks the received data as used: {@code STALE}, so the sender may write again (same rank) and
   * the next receive may be posted. With {@link CommDebug} on, the buffer is filled with NaN.
   *
   * @throws IllegalStateException on a sending channel, or before the message was received
   */
  public void stale() {
    if (role == ChannelRole.SENDER) {
      throw misuse("stale() on a sending channel");
    }
    BufferState s = state;
    if (s != BufferState.RECEIVED && s != BufferState.RECEIVED_NULL) {
      throw misuse("stale() before the message was received");
    }
    staleReceived();
  }

  /**
   * {@link #stale()} without checking role and state: for {@link ChannelVector#staleAll}, whose
   * receive pass has just seen the buffer received.
   */
  void staleReceived() {
    if (CommDebug.ENABLED && slice != null) {
      int offset = slice.offset();
      Arrays.fill(slice.array(), offset, offset + length, Double.NaN);
    }
    STATE.setRelease(this, BufferState.STALE);
    if (message != null) {
      message.memberStaled();
    }
  }

  /**
   * Makes this cross-rank channel travel in {@code m}, in message slot {@code messageSlot}; at
   * build time, before the first exchange, with the buffer not yet allocated (its allocation
   * function must return the slot's part of the message).
   */
  void joinMessage(CoalescedMessage m, int messageSlot) {
    if (role == ChannelRole.LOCAL || message != null || slice != null || sendSequence != 0
        || receiveSequence != 0) {
      throw misuse("joinMessage() needs a fresh cross-rank channel");
    }
    message = m;
    slot = messageSlot;
  }

  /** Member of a sending message: the message's send completed. */
  void messageSent() {
    STATE.setRelease(this, BufferState.STALE);
  }

  /** Member of a receiving message: the message arrived with this channel's flag. */
  void messageReceived(boolean hasData) {
    finishReceive(hasData ? length : 0);
  }

  /** The coalesced message this channel travels in, or null. */
  public CoalescedMessage message() {
    return message;
  }

  /** The current state. */
  public BufferState state() {
    return state;
  }

  /** The channel's name. */
  public ChannelKey key() {
    return key;
  }

  /** The channel's description. */
  public ChannelSpec spec() {
    return spec;
  }

  /** Boundary values or flux corrections. */
  public ChannelKind kind() {
    return spec.kind();
  }

  /** Sender, receiver, or both on this rank. */
  public ChannelRole role() {
    return role;
  }

  /** Whether sender and receiver are on this rank. */
  public boolean isLocal() {
    return role == ChannelRole.LOCAL;
  }

  /** The other rank: the receiver's for a sender, the sender's otherwise. */
  public int peerRank() {
    return peer;
  }

  /** The MPI tag (unused on one rank). */
  public int tag() {
    return tag;
  }

  /** The buffer length in elements. */
  public int length() {
    return length;
  }

  /** Whether the receiver allocates only for non-empty messages. */
  public boolean isSparse() {
    return sparse;
  }

  /** Messages sent so far (0 on a receiving object). */
  public long sendSequence() {
    return sendSequence;
  }

  /** Messages received so far (0 on a sending object). */
  public long receiveSequence() {
    return receiveSequence;
  }

  /** Whether a send or a posted receive on the buffer is not yet known to be complete. */
  public boolean isInFlight() {
    return transfer != null && (transfer.pinsArena() || transfer.receivePosted())
        || message != null && message.isInFlight();
  }

  /** One line for channel dumps: every field as {@code name=value}. */
  public String describe() {
    return spec.kind() + " " + key + " role=" + role + " state=" + state + " peer=" + peer
        + " tag=" + tag + " length=" + length + " sparse=" + sparse + " allocated="
        + (slice != null) + " inFlight=" + isInFlight() + " sendSeq=" + sendSequence
        + " recvSeq=" + receiveSequence + (message == null ? "" : " messagePeer="
        + message.group().peerRank() + " sendingPartition=" + message.group().partition()
        + " slot=" + slot);
  }

  private IllegalStateException misuse(String what) {
    return new IllegalStateException(what + ": key=" + key + ", kind=" + spec.kind() + ", role="
        + role + ", state=" + state + ", rank=" + rank);
  }

  @Override
  public String toString() {
    return "CommBuffer[" + describe() + "]";
  }
}
