package org.metope.bvals.channel;

import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * Hands out reference-counted objects and recycles the ones given back, so that a resource is
 * created once and reused instead of created per request (Parthenon's {@code ObjectPool}). Each
 * {@link #get()} returns an {@link Owner} with count 1 and {@link Owner#release()} gives it back:
 * the object goes back on the free stack and its key is invalidated. (Parthenon's pool also has
 * extra owners and weak handles; a channel here is the only owner of its buffer, so neither is
 * needed.)
 *
 * <p>Keys: each lease gets a new key, unique in this pool and never 0; a released owner's key
 * reads 0.
 *
 * <p>Allocation: the pool creates one {@link Owner} per object, at the time it creates the object,
 * and reuses it for every lease, so {@code get}/{@code release} in steady state allocate nothing.
 * The price is Java's lack of destructors: an owner reference must not be used after the {@code
 * release()} that dropped its count to zero (a second release then is caught; a use after the
 * object was leased again is not).
 *
 * <p>Not thread-safe: a pool is used by one thread at a time. {@link BufferPools} keeps one pool
 * per buffer group and length, and a group belongs to one partition's tasks.
 *
 * @param <T> the pooled resource
 */
public final class ObjectPool<T> {
  /** Objects {@link #createRun} makes per call at most. */
  private static final int CREATE_RUN = 64;

  private final Supplier<? extends T> factory;
  private final ArrayDeque<Owner<T>> free = new ArrayDeque<>();
  private int created;
  private int inUse;
  private long reuses;
  private long lastKey;

  /** A pool that creates its objects with {@code factory}. */
  public ObjectPool(Supplier<? extends T> factory) {
    if (factory == null) {
      throw new IllegalArgumentException("factory is null");
    }
    this.factory = factory;
  }

  /** An object with a fresh key and one owner: a recycled one when available, else a new one. */
  public Owner<T> get() {
    Owner<T> owner = free.pollLast();
    if (owner == null) {
      owner = create();
    } else {
      reuses++;
    }
    owner.key = ++lastKey;
    owner.count = 1;
    inUse++;
    return owner;
  }

  /**
   * Creates free objects until at least {@code count} exist (in use or free), so that later
   * {@link #get()} calls up to that many leases create nothing.
   */
  public void ensureCapacity(int count) {
    while (created < count) {
      createRun(Math.min(count, created + CREATE_RUN));
    }
  }

  /**
   * Free objects until {@code count} exist, at most {@link #CREATE_RUN}: a pool is filled once
   * per remesh, too rarely for the JIT to compile the loop above, while a method per run of
   * objects is compiled within the first remeshes.
   */
  private void createRun(int count) {
    while (created < count) {
      free.addLast(create());
    }
  }

  private Owner<T> create() {
    T object = factory.get();
    if (object == null) {
      throw new IllegalStateException("pool factory returned null: created=" + created);
    }
    created++;
    return new Owner<>(this, object);
  }

  /** Back on the free stack; called when an owner's count reaches zero. */
  private void recycle(Owner<T> owner) {
    owner.key = 0;
    inUse--;
    free.addLast(owner);
  }

  /** Objects created by the factory. */
  public int created() {
    return created;
  }

  /** Objects currently leased. */
  public int inUse() {
    return inUse;
  }

  /** Objects on the free stack. */
  public int free() {
    return free.size();
  }

  /** Leases served from the free stack instead of the factory. */
  public long reuses() {
    return reuses;
  }

  @Override
  public String toString() {
    return "ObjectPool[created=" + created + ", inUse=" + inUse + ", free=" + free.size()
        + ", reuses=" + reuses + "]";
  }

  /**
   * The handle on a leased object (Parthenon's {@code owner_t}); {@link #release()} ends the
   * lease.
   *
   * @param <T> the pooled resource
   */
  public static final class Owner<T> {
    private final ObjectPool<T> pool;
    private final T object;
    private long key;
    private int count;

    private Owner(ObjectPool<T> pool, T object) {
      this.pool = pool;
      this.object = object;
    }

    /** The object. */
    public T get() {
      if (count == 0) {
        throw new IllegalStateException("owner used after its last release: object=" + object);
      }
      return object;
    }

    /** Drops an owner; the last release gives the object back to the pool. */
    public void release() {
      if (count == 0) {
        throw new IllegalStateException("release() of an owner already released: object="
            + object);
      }
      if (--count == 0) {
        pool.recycle(this);
      }
    }

    /** Number of owners; 0 once released. */
    public int referenceCount() {
      return count;
    }

    /** Whether the lease is alive (at least one owner). */
    public boolean isValid() {
      return count > 0;
    }

    /** The lease's key; 0 once released. */
    public long key() {
      return key;
    }

    @Override
    public String toString() {
      return "Owner[key=" + key + ", count=" + count + ", object=" + object + "]";
    }
  }
}
