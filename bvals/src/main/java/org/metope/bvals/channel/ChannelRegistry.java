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
 *   <li>{@link #awaitSends()}: waits for the last cross-rank sends, before buffers move;
 *   <li>{@link #retire()}: the end of the registry at a remesh's quiescent point.
 * </ul>
 *
 * <p>No buffer moves while a message on it is in flight: a remesh waits for the sends once, when
 * the old caches are released ({@code awaitSends}), and builds its channels over a new arena;
 * {@link #retire()} then only checks, through the arena's in-flight count, that nothing is left.
 */
public final class ChannelRegistry {
  private final int rank;
  private final BufferArena arena;
  private final ChannelMap boundaryValues;
  private final ChannelMap fluxCorrections;
  private final List<CoalescedMessage> messages = new ArrayList<>();

  /**
   * An empty registry.
   *
   * @param rank this rank, for dumps
   * @param arena the rank's buffer arena, summarised in dumps
   */
  public ChannelRegistry(int rank, BufferArena arena) {
    this(rank, arena, 0, 0);
  }

  /**
   * An empty registry whose maps hold {@code expectedValues} boundary-value and {@code
   * expectedFluxes} flux-correction channels without growing (a remesh passes the previous
   * registry's sizes: meshes change little between remeshes).
   */
  public ChannelRegistry(int rank, BufferArena arena, int expectedValues, int expectedFluxes) {
    if (rank < 0 || arena == null || expectedValues < 0 || expectedFluxes < 0) {
      throw new IllegalArgumentException("registry needs a rank and an arena: rank=" + rank
          + ", arena=" + arena + ", expectedValues=" + expectedValues + ", expectedFluxes="
          + expectedFluxes);
    }
    this.rank = rank;
    this.arena = arena;
    this.boundaryValues = new ChannelMap(ChannelKind.BOUNDARY_VALUES, expectedValues);
    this.fluxCorrections = new ChannelMap(ChannelKind.FLUX_CORRECTION, expectedFluxes);
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
      List<CommBuffer> senders = map(kind).senders();
      for (int i = 0; i < senders.size(); i++) {
        senders.get(i).awaitSend();
      }
    }
  }

  /**
   * Ends this registry at a quiescent point (no receive posted), before a remesh builds a new one
   * over a new arena: waits for cross-rank sends only if the arena still counts messages in flight
   * (none after {@link #awaitSends()}, so one atomic read), then refuses to go on while any
   * remain. Buffers and messages are not given back one by one: their pools and arena are dropped
   * with the registry.
   *
   * @throws IllegalStateException when a message is still in flight (a posted receive)
   */
  public void retire() {
    if (arena.slicesInFlight() > 0) {
      awaitSends();
    }
    int flying = arena.slicesInFlight();
    if (flying > 0) {
      throw new IllegalStateException("channels retired while messages are in flight: rank="
          + rank + ", slicesInFlight=" + flying);
    }
  }
}
