package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * One {@link ObjectPool} of {@link BufferSlice}s per (group, length) over a rank's {@link
 * BufferArena} (Parthenon's {@code pool_map}, one pool per buffer size, here also per {@link
 * BufferGroup} so that a recycled slice stays in its group's region). A {@link CommBuffer} takes
 * its pool's {@code get} as allocation function: allocating and freeing buffers is then a pop
 * and a push on the pool's free stack, and creates slices only when the pool is empty.
 *
 * <p>Pools are created while caches are built (a map lookup; not for per-step use): keep the
 * returned pool.
 */
public final class BufferPools {
  /** A hash key; equals and hashCode written out as in {@link BufferGroup}. */
  private record PoolKey(BufferGroup group, int length, boolean onDemand) {
    @Override
    public boolean equals(Object o) {
      return o instanceof PoolKey k && length == k.length && onDemand == k.onDemand
          && group.equals(k.group);
    }

    @Override
    public int hashCode() {
      return (group.hashCode() * 31 + length) * 31 + Boolean.hashCode(onDemand);
    }
  }

  private final BufferArena arena;
  private final HashMap<PoolKey, ObjectPool<BufferSlice>> pools = new HashMap<>();
  private final List<PoolKey> creationOrder = new ArrayList<>();

  /** Pools over {@code arena}. */
  public BufferPools(BufferArena arena) {
    if (arena == null) {
      throw new IllegalArgumentException("arena is null");
    }
    this.arena = arena;
  }

  /** The pool of {@code length}-element slices of {@code group}, created on first use. */
  public ObjectPool<BufferSlice> pool(BufferGroup group, int length) {
    return pool(group, length, false);
  }

  /**
   * The pool of {@code length}-element slices of {@code group}'s sparse channels, which the
   * arena's on-demand region creates when a lease finds the pool empty ({@link
   * BufferArena#allocateOnDemand}); created on first use. The group keeps the pool to one
   * partition's tasks, so one thread at a time.
   */
  public ObjectPool<BufferSlice> onDemandPool(BufferGroup group, int length) {
    return pool(group, length, true);
  }

  private ObjectPool<BufferSlice> pool(BufferGroup group, int length, boolean onDemand) {
    if (group == null || length <= 0) {
      throw new IllegalArgumentException("pool needs a group and a positive length: group="
          + group + ", length=" + length);
    }
    PoolKey key = new PoolKey(group, length, onDemand);
    ObjectPool<BufferSlice> pool = pools.get(key);
    if (pool == null) {
      pool = onDemand ? new ObjectPool<>(() -> arena.allocateOnDemand(length))
          : new ObjectPool<>(() -> arena.allocate(group, length));
      pools.put(key, pool);
      creationOrder.add(key);
    }
    return pool;
  }

  /** The arena the slices come from. */
  public BufferArena arena() {
    return arena;
  }

  /** Number of pools. */
  public int poolCount() {
    return pools.size();
  }

  /** Slices created, summed over pools. */
  public int created() {
    int n = 0;
    for (ObjectPool<BufferSlice> p : pools.values()) {
      n += p.created();
    }
    return n;
  }

  /** Slices leased, summed over pools. */
  public int inUse() {
    int n = 0;
    for (ObjectPool<BufferSlice> p : pools.values()) {
      n += p.inUse();
    }
    return n;
  }

  /** Free slices, summed over pools. */
  public int free() {
    int n = 0;
    for (ObjectPool<BufferSlice> p : pools.values()) {
      n += p.free();
    }
    return n;
  }

  /** Leases served by recycling, summed over pools. */
  public long reuses() {
    long n = 0;
    for (ObjectPool<BufferSlice> p : pools.values()) {
      n += p.reuses();
    }
    return n;
  }

  /** The arena line, then one line per pool in creation order. */
  public String describe() {
    StringBuilder sb = new StringBuilder(arena.describe());
    for (PoolKey key : creationOrder) {
      ObjectPool<BufferSlice> p = pools.get(key);
      sb.append("\npool group=").append(key.group()).append(" length=").append(key.length())
          .append(key.onDemand() ? " onDemand" : "").append(" created=").append(p.created()).append(" inUse=").append(p.inUse())
          .append(" free=").append(p.free()).append(" reuses=").append(p.reuses());
    }
    return sb.toString();
  }
}
