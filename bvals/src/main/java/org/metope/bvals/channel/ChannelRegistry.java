package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.List;

/**
 * A rank's channels: one {@link ChannelMap} for boundary values and one for flux corrections, the
 * {@link CoalescedMessage}s that carry cross-rank channels when coalescing is on, plus the
 * diagnostics that look at all of them.
 *
 * <ul>
 *   <li>{@link #dump()}: every channel's key, role, state, peer, tag, size and sequence numbers,
 *       for the stall report of the task system;
 *   <li>{@link #awaitSends()}: waits for the last cross-rank sends, before buffers move.
 * </ul>
 */
public final class ChannelRegistry {
  private final int rank;
  private final BufferArena arena;
  private final ChannelMap boundaryValues = new ChannelMap(ChannelKind.BOUNDARY_VALUES);
  private final ChannelMap fluxCorrections = new ChannelMap(ChannelKind.FLUX_CORRECTION);
  private final List<CoalescedMessage> messages = new ArrayList<>();

  /**
   * An empty registry.
   *
   * @param rank this rank, for dumps
   * @param arena the rank's buffer arena, summarised in dumps
   */
  public ChannelRegistry(int rank, BufferArena arena) {
    if (rank < 0 || arena == null) {
      throw new IllegalArgumentException("registry needs a rank and an arena: rank=" + rank
          + ", arena=" + arena);
    }
    this.rank = rank;
    this.arena = arena;
  }

  /** The map of {@code kind}. */
  public ChannelMap map(ChannelKind kind) {
    return kind == ChannelKind.BOUNDARY_VALUES ? boundaryValues : fluxCorrections;
  }

  /** The boundary-value channels. */
  public ChannelMap boundaryValues() {
    return boundaryValues;
  }

  /** The flux-correction channels. */
  public ChannelMap fluxCorrections() {
    return fluxCorrections;
  }

  /** Registers a coalesced message (its members are registered in the maps on their own). */
  public void add(CoalescedMessage message) {
    messages.add(message);
  }

  /** The coalesced messages, in the order they were built. */
  public List<CoalescedMessage> messages() {
    return List.copyOf(messages);
  }

  /** Number of channels of both kinds. */
  public int size() {
    return boundaryValues.size() + fluxCorrections.size();
  }

  /**
   * Every channel of this rank, one line each ({@link CommBuffer#describe()}), boundary values
   * then flux corrections, each sorted by key, after a header naming the rank and the arena and
   * one line per coalesced message ({@link CoalescedMessage#describe()}).
   */
  public String dump() {
    StringBuilder sb = new StringBuilder();
    sb.append("channels of rank ").append(rank).append(": boundaryValues=")
        .append(boundaryValues.size()).append(" fluxCorrections=").append(fluxCorrections.size())
        .append(" coalescedMessages=").append(messages.size()).append("; ")
        .append(arena.describe());
    for (CoalescedMessage m : messages) {
      sb.append('\n').append("  ").append(m.describe());
    }
    for (ChannelKind kind : ChannelKind.values()) {
      for (CommBuffer b : map(kind).sorted()) {
        sb.append('\n').append("  ").append(b.describe());
      }
    }
    return sb.toString();
  }

  /** Blocks until every cross-rank send of this rank has completed (see {@link CommBuffer#awaitSend()}). */
  public void awaitSends() {
    for (ChannelKind kind : ChannelKind.values()) {
      for (CommBuffer b : map(kind).unordered()) {
        b.awaitSend();
      }
    }
  }

  /**
   * Waits for the last sends, frees every channel's buffer, gives every message's slice back and
   * forgets them all, as before rebuilding after a remesh (a quiescent point: no receive posted).
   */
  public void clear() {
    awaitSends();
    boundaryValues.clear();
    fluxCorrections.clear();
    for (CoalescedMessage m : messages) {
      m.release();
    }
    messages.clear();
  }
}
