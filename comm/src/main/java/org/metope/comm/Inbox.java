package org.metope.comm;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayDeque;

/**
 * The messages addressed to one in-process rank: a FIFO mailbox per (communicator, sender, tag),
 * each holding either messages that arrived before their receive or receives posted before their
 * message, never both. All access holds this inbox's monitor; senders copy under it.
 *
 * <p>Mailboxes are created on first use and kept, and each keeps a free list of message buffers,
 * so a steady exchange (same channels, same sizes every step) allocates nothing.
 *
 * <pre>
 * mailbox key (long):  | communicator id (32 bits) | sender rank (16 bits) | tag (16 bits) |
 * </pre>
 */
final class Inbox {
  private final Long2ObjectOpenHashMap<Mailbox> mailboxes = new Long2ObjectOpenHashMap<>();

  /** A buffered message: its data occupy {@code data[0, length)}. */
  private static final class Message {
    double[] data;
    int length;
  }

  /** One (communicator, sender, tag) channel into this rank. */
  private static final class Mailbox {
    final ArrayDeque<Message> arrived = new ArrayDeque<>();
    final ArrayDeque<InProcessRequest> posted = new ArrayDeque<>();
    final ArrayDeque<Message> free = new ArrayDeque<>();
  }

  static long key(int communicatorId, int sender, int tag) {
    return ((long) communicatorId << 32) | ((long) sender << 16) | tag;
  }

  /**
   * Delivers {@code array[offset, offset + length)}: straight into the oldest posted receive, or
   * into a buffered copy that a later receive takes.
   */
  synchronized void deliver(long key, double[] array, int offset, int length) {
    Mailbox box = mailbox(key);
    InProcessRequest receive = box.posted.poll();
    if (receive != null) {
      receive.completeReceive(array, offset, length);
      return;
    }
    Message m = box.free.poll();
    if (m == null) {
      m = new Message();
    }
    if (m.data == null || m.data.length < length) {
      m.data = new double[length];
    }
    System.arraycopy(array, offset, m.data, 0, length);
    m.length = length;
    box.arrived.add(m);
  }

  /**
   * Matches {@code receive} with the oldest arrived message, completing it, or queues it until a
   * message arrives.
   */
  synchronized void post(long key, InProcessRequest receive) {
    Mailbox box = mailbox(key);
    Message m = box.arrived.poll();
    if (m == null) {
      box.posted.add(receive);
      return;
    }
    receive.completeReceive(m.data, 0, m.length);
    box.free.add(m);
  }

  /** Length of the oldest unmatched message, or -1. */
  synchronized int probe(long key) {
    Mailbox box = mailboxes.get(key);
    if (box == null) {
      return -1;
    }
    Message m = box.arrived.peek();
    return m == null ? -1 : m.length;
  }

  private Mailbox mailbox(long key) {
    Mailbox box = mailboxes.get(key);
    if (box == null) {
      box = new Mailbox();
      mailboxes.put(key, box);
    }
    return box;
  }
}
