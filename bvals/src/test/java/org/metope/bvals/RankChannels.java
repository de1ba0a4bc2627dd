package org.metope.bvals;

import java.util.IdentityHashMap;
import org.metope.bvals.channel.BufferArena;
import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.BufferPools;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelRegistry;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelSpec;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.ObjectPool;
import org.metope.comm.Communicator;

/** One rank's channel infrastructure for tests: arena, pools, registry, and a channel factory. */
public final class RankChannels {
  public final Communicator comm;
  public final BufferArena arena = new BufferArena();
  public final BufferPools pools = new BufferPools(arena);
  public final ChannelRegistry registry;
  private final IdentityHashMap<ObjectPool<BufferSlice>, Integer> channelsPerPool =
      new IdentityHashMap<>();

  public RankChannels(Communicator comm) {
    this.comm = comm;
    this.registry = new ChannelRegistry(comm.rank(), arena);
  }

  /**
   * This rank's end of a boundary-value channel, registered, built as the cache builder does:
   * allocated unless a sparse receiver, and with a slice reserved in its pool for every channel
   * using the pool, so that sparse receivers allocating during a step never grow the arena.
   */
  public CommBuffer channel(ChannelKey key, int senderRank, int receiverRank, int tag, int length,
      boolean sparse) {
    ChannelSpec spec = new ChannelSpec(key, ChannelKind.BOUNDARY_VALUES, senderRank, receiverRank,
        tag, length, sparse);
    int me = comm.rank();
    ChannelRole role = senderRank == receiverRank ? ChannelRole.LOCAL
        : senderRank == me ? ChannelRole.SENDER : ChannelRole.RECEIVER;
    int peer = role == ChannelRole.SENDER ? receiverRank : senderRank;
    ObjectPool<BufferSlice> pool =
        pools.pool(new BufferGroup(peer, 0, ChannelKind.BOUNDARY_VALUES, role), length);
    CommBuffer b = new CommBuffer(spec, comm, pool::get);
    int users = channelsPerPool.merge(pool, 1, Integer::sum);
    pool.ensureCapacity(users);
    if (role != ChannelRole.RECEIVER || !sparse) {
      b.allocate();
    }
    registry.boundaryValues().put(b);
    return b;
  }

  /** Writes {@code base + i} into element {@code i} of the buffer. */
  public static void fill(CommBuffer b, double base) {
    BufferSlice s = b.buffer();
    double[] a = s.array();
    int o = s.offset();
    for (int i = 0; i < s.length(); i++) {
      a[o + i] = base + i;
    }
  }

  /** Number of elements of the buffer that differ from {@code base + i}. */
  public static int mismatches(CommBuffer b, double base) {
    BufferSlice s = b.buffer();
    double[] a = s.array();
    int o = s.offset();
    int wrong = 0;
    for (int i = 0; i < s.length(); i++) {
      if (a[o + i] != base + i) {
        wrong++;
      }
    }
    return wrong;
  }

  /** Polls until received; the in-process peer is a running thread. */
  static void receive(CommBuffer b) {
    while (!b.tryReceive()) {
      Thread.onSpinWait();
    }
  }

  /** Polls until the sender may write. */
  public static void awaitWritable(CommBuffer b) {
    while (!b.isAvailableForWrite()) {
      Thread.onSpinWait();
    }
  }
}
