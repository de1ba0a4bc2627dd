package org.metope.bvals.channel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.metope.tasking.TaskThreadPool;

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
 * <h2>A group's growth moves data, so it happens only while building</h2>
 *
 * <p>A region that is full doubles its capacity (the last region, while the array has room, grows
 * by what it needs: nothing moves); the regions after it shift, and the array is
 * reallocated when too small ({@link #reserve} sizes it once for a builder that knows its total).
 * Contents are copied, and slices follow automatically (they read
 * their region's current start), but anything that kept an old {@code (array, offset)} does not:
 * a posted receive, a send not yet complete, or a cache that copied offsets into an {@code int[]}.
 * Hence:
 *
 * <ul>
 *   <li>moving data while a message is in flight on any slice is refused ({@link
 *       #slicesInFlight()}, counted by {@link CommBuffer}), always;
 *   <li>moving data while {@linkplain #freeze() frozen} is refused: boundary communication
 *       freezes the arena once its channels are built (a remesh builds a new arena), so a step
 *       never moves a group's data, deterministically;
 *   <li>every move increments {@link #layoutVersion()}, which caches compare with the version they
 *       were built against.
 * </ul>
 *
 * <p>Appending a slice into a region's spare capacity moves nothing and is allowed at any time;
 * reserve slices at build time ({@link ObjectPool#ensureCapacity}) for buffers every step needs.
 *
 * <h2>The on-demand region: buffers that follow sparse allocation</h2>
 *
 * <p>Buffers of sparse fields outside coalesced messages are taken when their field is allocated
 * (sender) or data arrive (receiver), during a step, from one more region that {@link
 * #openOnDemandRegion} places after every other ({@link #allocateOnDemand}). It grows only at
 * the end of the array, so no slice ever changes its offset; when the array is too short it is
 * replaced by a longer copy (half as long again, at least), which is allowed while frozen and
 * while messages are in flight:
 *
 * <ul>
 *   <li>a receive posted into the old array lands there, so whoever completes it copies what
 *       arrived into the current array at the same offset ({@link CommBuffer}, {@link
 *       CoalescedMessage}); a send from the old array sends the same values;
 *   <li>the copy runs through {@link TaskThreadPool#runExclusive}, so no other task's kernel is
 *       writing the old array meanwhile;
 *   <li>{@link #layoutVersion()} increments, so caches prepare their launches again.
 * </ul>
 *
 * <p>So the on-demand region holds what sparse allocation needs at its peak within a mesh (slices
 * are recycled by their pools, never returned); a remesh starts a new arena.
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
  /** The region of {@link #allocateOnDemand}, the last one; null until opened. */
  private Region onDemand;

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
   * Makes the array at least {@code length} elements long while no slice exists yet, so that a
   * builder that knows its total (the dense channels and messages of a mesh, {@code
   * ChannelBuilder}) allocates the array once instead of growing it step by step: each step
   * allocates a new array and copies, and on a mesh of 176 burgers blocks the steps allocated
   * several times the final length. Does nothing once a slice exists or when the array is long enough already.
   */
  public synchronized void reserve(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length must be non-negative: length=" + length);
    }
    if (end == 0 && array.length < length) {
      array = new double[length];
      layoutVersion = layoutVersion + 1;
    }
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
      if (onDemand != null) {
        throw new IllegalStateException("a group's region after the on-demand region: group="
            + group + ", length=" + length);
      }
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

  /**
   * Opens the on-demand region after every region so far; no group may take a region after it
   * (their slices would have to move when it grows). Called once the caches' groups are built.
   */
  public synchronized void openOnDemandRegion() {
    if (onDemand != null) {
      throw new IllegalStateException("the on-demand region is open already: " + describe());
    }
    onDemand = new Region(null, end);
    regions.add(onDemand);
  }

  /**
   * A new slice of {@code length} elements in the on-demand region, for a sparse field's buffer
   * taken during a step; never moves a slice, and replaces the array by a longer copy when it is
   * full (see the class comment). Called by the pools' factories.
   *
   * @throws IllegalStateException before {@link #openOnDemandRegion}
   */
  public BufferSlice allocateOnDemand(int length) {
    if (length <= 0) {
      throw new IllegalArgumentException("slice length must be positive: length=" + length);
    }
    while (true) {
      synchronized (this) {
        if (onDemand == null) {
          throw new IllegalStateException("no on-demand region: length=" + length + ", "
              + describe());
        }
        if ((long) end + length <= array.length) {
          BufferSlice slice = new BufferSlice(this, onDemand, onDemand.used, length);
          onDemand.used += length;
          onDemand.capacity = onDemand.used;
          end += length;
          sliceCount++;
          return slice;
        }
      }
      // Not while holding this arena's lock: another task may need it to end its pass.
      TaskThreadPool.runExclusive(() -> lengthenFor(length));
    }
  }

  /** Replaces the array by a copy with room for {@code length} more (half as long again, at least). */
  private synchronized void lengthenFor(int length) {
    long needed = (long) end + length;
    if (needed <= array.length) {
      return;
    }
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("buffer arena would exceed the largest Java array: end="
          + end + ", length=" + length);
    }
    long grown = Math.max(needed, Math.max(MIN_ARRAY_LENGTH, array.length + array.length / 2L));
    array = java.util.Arrays.copyOf(array, (int) Math.min(grown, Integer.MAX_VALUE - 8));
    layoutVersion = layoutVersion + 1;
  }

  /**
   * Gives {@code region} at least {@code needed} elements, moving later regions if needed. The last
   * region grows by exactly what it needs while the array has room (nothing moves), so that an
   * arena {@link #reserve reserved} for a known total ends at that total; otherwise capacity
   * doubles.
   */
  private void grow(Region region, int needed) {
    boolean lastFits = regions.get(regions.size() - 1) == region
        && (long) end - region.capacity + needed <= array.length;
    int newCapacity = lastFits ? needed : (int) Math.min(Integer.MAX_VALUE - 8,
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

  /** Groups in the order of their regions in the array (the on-demand region has none). */
  public synchronized List<BufferGroup> groups() {
    List<BufferGroup> groups = new ArrayList<>(regions.size());
    for (Region r : regions) {
      if (r.group != null) {
        groups.add(r.group);
      }
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
        + " slices=" + sliceCount + " onDemand=" + (onDemand == null ? "closed" : onDemand.used)
        + " slicesInFlight=" + inFlight.get() + " frozen=" + frozen
        + " layoutVersion=" + layoutVersion;
  }

  @Override
  public String toString() {
    return describe();
  }
}
