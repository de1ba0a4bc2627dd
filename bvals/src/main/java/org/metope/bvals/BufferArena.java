package org.metope.bvals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one {@code double[]} of a rank that holds every boundary buffer, each a {@link BufferSlice}
 * {@code (offset, length)}. Kernels take the array and the slices' offsets; MPI sends and receives
 * slices of it.
 *
 * <h2>Layout: one region per group</h2>
 *
 * <p>Slices are placed by {@link BufferGroup} (peer rank, partition, kind, role): each group owns
 * one contiguous region, and the slices of a group are back to back in it, in the order they were
 * created. Regions follow each other in the order their groups first asked for a slice:
 *
 * <pre>
 * array: | region g0: s0 s1 s2 .. (spare) | region g1: s0 s1 .. (spare) | ... | (spare) |
 *          ^ groupStart(g0)                 ^ groupStart(g1)
 * slice offset = region start + offset of the slice in its region
 * </pre>
 *
 * <p>So the channels of one group (for example every boundary this partition sends to rank 3)
 * lie in {@code [groupStart(g), groupStart(g) + groupUsed(g))} and travel as one message ({@link
 * CoalescedMessage}, whose slice is the group's region).
 *
 * <h2>Growth moves data, so it happens only while building</h2>
 *
 * <p>A region that is full doubles its capacity; the regions after it shift, and the array is
 * reallocated when too small. Contents are copied, and slices follow automatically (they read
 * their region's current start), but anything that kept an old {@code (array, offset)} does not:
 * a posted receive, a send not yet complete, or a cache that copied offsets into an {@code int[]}.
 * Hence:
 *
 * <ul>
 *   <li>moving data while a message is in flight on any slice is refused ({@link
 *       #slicesInFlight()}, counted by {@link CommBuffer}), always;
 *   <li>moving data while {@linkplain #freeze() frozen} is refused: the cache builder freezes the
 *       arena once the caches are built and thaws it at the next remesh or allocation change, so
 *       a step never moves data, deterministically;
 *   <li>every move increments {@link #layoutVersion()}, which caches compare with the version they
 *       were built against.
 * </ul>
 *
 * <p>Appending a slice into a region's spare capacity moves nothing and is allowed at any time;
 * reserve slices at build time ({@link ObjectPool#ensureCapacity}) so that sparse receivers that
 * allocate during a step find one.
 *
 * <p>Thread safety: slice creation and growth are synchronized; {@link #array()} is a volatile
 * read; the in-flight count is atomic.
 */
public final class BufferArena {
  private static final int MIN_ARRAY_LENGTH = 64;

  /** A group's contiguous part of the array. */
  static final class Region {
    final BufferGroup group;
    int start;
    int capacity;
    int used;

    Region(BufferGroup group, int start) {
      this.group = group;
      this.start = start;
    }
  }

  private volatile double[] array;
  private final List<Region> regions = new ArrayList<>();
  private final HashMap<BufferGroup, Region> regionOfGroup = new HashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private int end;
  private int sliceCount;
  private boolean frozen;
  private volatile long layoutVersion;

  /** An empty arena. */
  public BufferArena() {
    this(MIN_ARRAY_LENGTH);
  }

  /** An empty arena whose array starts with {@code initialLength} elements. */
  public BufferArena(int initialLength) {
    if (initialLength < 0) {
      throw new IllegalArgumentException("initialLength must be non-negative: initialLength="
          + initialLength);
    }
    this.array = new double[initialLength];
  }

  /**
   * The current array. It is replaced when the arena grows, so read it again after any build
   * step (kernels read it at each launch; it is a field read, not an allocation).
   */
  public double[] array() {
    return array;
  }

  /**
   * A new slice of {@code length} elements at the end of {@code group}'s region, growing the
   * region when it is full. Called by the pools' factories; the slice is never given back to the
   * arena, only recycled by its pool.
   *
   * @throws IllegalStateException when the region must grow and data would move while frozen or
   *     while a message is in flight
   */
  public synchronized BufferSlice allocate(BufferGroup group, int length) {
    if (group == null) {
      throw new IllegalArgumentException("group is null: length=" + length);
    }
    if (length <= 0) {
      throw new IllegalArgumentException("slice length must be positive: length=" + length
          + ", group=" + group);
    }
    Region region = regionOfGroup.get(group);
    if (region == null) {
      region = new Region(group, end);
      regions.add(region);
      regionOfGroup.put(group, region);
    }
    if (region.used > region.capacity - length) {
      grow(region, region.used + length);
    }
    BufferSlice slice = new BufferSlice(this, region, region.used, length);
    region.used += length;
    sliceCount++;
    return slice;
  }

  /** Gives {@code region} at least {@code needed} elements, moving later regions if needed. */
  private void grow(Region region, int needed) {
    int newCapacity = (int) Math.min(Integer.MAX_VALUE - 8,
        Math.max((long) needed, 2L * region.capacity));
    int delta = newCapacity - region.capacity;
    if ((long) end + delta > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("buffer arena would exceed the largest Java array: end="
          + end + ", growth=" + delta + ", group=" + region.group);
    }
    int newEnd = end + delta;
    boolean last = regions.get(regions.size() - 1) == region;
    double[] old = array;
    if (last && newEnd <= old.length) {
      region.capacity = newCapacity;
      end = newEnd;
      return;
    }
    checkMayMove(region.group, needed);
    double[] target = old;
    if (newEnd > old.length) {
      target = new double[Math.max(newEnd, Math.max(MIN_ARRAY_LENGTH, old.length + old.length / 2))];
    }
    int index = regions.indexOf(region);
    for (int r = regions.size() - 1; r > index; r--) {
      Region later = regions.get(r);
      System.arraycopy(old, later.start, target, later.start + delta, later.used);
      later.start += delta;
    }
    if (target != old) {
      for (int r = 0; r <= index; r++) {
        Region earlier = regions.get(r);
        System.arraycopy(old, earlier.start, target, earlier.start, earlier.used);
      }
    }
    region.capacity = newCapacity;
    end = newEnd;
    array = target;
    layoutVersion = layoutVersion + 1;
  }

  private void checkMayMove(BufferGroup group, int needed) {
    if (frozen) {
      throw new IllegalStateException("buffer arena is frozen, so its data cannot move: group="
          + group + ", needed=" + needed + "; slices are created while building caches (thaw()"
          + " first) or reserved then with ObjectPool.ensureCapacity");
    }
    int flying = inFlight.get();
    if (flying > 0) {
      throw new IllegalStateException("buffer arena cannot move data while messages are in "
          + "flight: slicesInFlight=" + flying + ", group=" + group + ", needed=" + needed);
    }
  }

  /** Forbids moving data (steps run frozen); appending into spare capacity stays allowed. */
  public synchronized void freeze() {
    frozen = true;
  }

  /** Allows moving data again (while building caches). */
  public synchronized void thaw() {
    frozen = false;
  }

  /** Whether data may not move. */
  public synchronized boolean isFrozen() {
    return frozen;
  }

  /**
   * Incremented each time slices move or the array is replaced; a volatile read, cheap enough for
   * a cache to compare with the version it was built against at every step.
   */
  public long layoutVersion() {
    return layoutVersion;
  }

  /** Number of slices with a message in flight (a posted receive or an unfinished send). */
  public int slicesInFlight() {
    return inFlight.get();
  }

  /** Called by {@link CommBuffer} when a send or receive on a slice starts. */
  void beginFlight() {
    inFlight.incrementAndGet();
  }

  /** Called by {@link CommBuffer} once that send or receive is known to be complete. */
  void endFlight() {
    inFlight.decrementAndGet();
  }

  /** Start of {@code group}'s region in the array. */
  public synchronized int groupStart(BufferGroup group) {
    return region(group).start;
  }

  /** Elements of {@code group}'s region taken by slices (they are {@code [start, start + used)}). */
  public synchronized int groupUsed(BufferGroup group) {
    return region(group).used;
  }

  /** Groups in the order of their regions in the array. */
  public synchronized List<BufferGroup> groups() {
    List<BufferGroup> groups = new ArrayList<>(regions.size());
    for (Region r : regions) {
      groups.add(r.group);
    }
    return groups;
  }

  /** Number of slices created. */
  public synchronized int sliceCount() {
    return sliceCount;
  }

  /** Elements taken by slices, summed over regions. */
  public synchronized int used() {
    int used = 0;
    for (Region r : regions) {
      used += r.used;
    }
    return used;
  }

  private Region region(BufferGroup group) {
    Region r = regionOfGroup.get(group);
    if (r == null) {
      throw new IllegalArgumentException("no slice was ever allocated for group=" + group);
    }
    return r;
  }

  /** One line: sizes, counts and whether it is frozen. */
  public synchronized String describe() {
    return "arena length=" + array.length + " used=" + used() + " regions=" + regions.size()
        + " slices=" + sliceCount + " slicesInFlight=" + inFlight.get() + " frozen=" + frozen
        + " layoutVersion=" + layoutVersion;
  }

  @Override
  public String toString() {
    return describe();
  }
}
