package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The channels of one {@link ChannelKind} on this rank, by {@link ChannelKey} (Parthenon's {@code
 * boundary_comm_map} and {@code boundary_comm_flxcor_map}). A same-rank channel is one entry,
 * found by both the sending and the receiving cache; a channel across ranks has its sender's
 * object in the sending rank's map and its receiver's object in the receiving rank's.
 *
 * <p>Lookups are for cache building; per step, caches hold their buffers in {@link
 * ChannelVector}s.
 */
public final class ChannelMap {
  private final ChannelKind kind;
  private final HashMap<ChannelKey, CommBuffer> channels;
  /** The {@link ChannelRole#SENDER} channels, the only ones a quiescent point waits for. */
  private final List<CommBuffer> senders = new ArrayList<>();

  /** An empty map for {@code kind} that holds {@code expected} channels without growing. */
  public ChannelMap(ChannelKind kind, int expected) {
    if (kind == null) {
      throw new IllegalArgumentException("kind is null");
    }
    this.kind = kind;
    this.channels = new HashMap<>(Math.max(16, (int) Math.min(1L << 30, expected * 4L / 3 + 1)));
  }

  /** The kind of every channel in the map. */
  public ChannelKind kind() {
    return kind;
  }

  /** The channel named {@code key}, or null. */
  public CommBuffer get(ChannelKey key) {
    return channels.get(key);
  }

  /**
   * The channel named {@code key}.
   *
   * @throws IllegalStateException when there is none
   */
  public CommBuffer require(ChannelKey key) {
    CommBuffer buffer = channels.get(key);
    if (buffer == null) {
      throw new IllegalStateException("no channel: key=" + key + ", kind=" + kind + ", channels="
          + channels.size());
    }
    return buffer;
  }

  /** Whether a channel named {@code key} is registered. */
  public boolean contains(ChannelKey key) {
    return channels.containsKey(key);
  }

  /**
   * Registers {@code buffer} under its key.
   *
   * @throws IllegalArgumentException when its kind differs or the key is taken
   */
  public void put(CommBuffer buffer) {
    if (buffer.kind() != kind) {
      throw new IllegalArgumentException("channel of another kind: kind=" + buffer.kind()
          + ", map kind=" + kind + ", key=" + buffer.key());
    }
    CommBuffer old = channels.putIfAbsent(buffer.key(), buffer);
    if (old != null) {
      throw new IllegalArgumentException("channel already registered: key=" + buffer.key()
          + ", kind=" + kind);
    }
    if (buffer.role() == ChannelRole.SENDER) {
      senders.add(buffer);
    }
  }

  /** The channels that send across ranks, in the order they were put. */
  List<CommBuffer> senders() {
    return senders;
  }

  /** Number of channels. */
  public int size() {
    return channels.size();
  }

  /** Every channel, in no particular order (for work whose order does not matter). */
  public java.util.Collection<CommBuffer> unordered() {
    return java.util.Collections.unmodifiableCollection(channels.values());
  }

  /** Every channel, sorted by key (the same order on every rank). */
  public List<CommBuffer> sorted() {
    List<CommBuffer> list = new ArrayList<>(channels.values());
    list.sort((a, b) -> a.key().compareTo(b.key()));
    return list;
  }
}
