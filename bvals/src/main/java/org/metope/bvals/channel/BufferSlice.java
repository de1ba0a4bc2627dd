package org.metope.bvals.channel;

/**
 * One boundary buffer: {@code array()[offset(), offset() + length())} of a {@link BufferArena}.
 * The slice keeps no copy of the array or of its absolute offset: both are read from the arena
 * each time, so a slice stays right when the arena moves data while caches are built. Reading
 * them allocates nothing.
 */
public final class BufferSlice {
  private final BufferArena arena;
  private final BufferArena.Region region;
  private final int offsetInRegion;
  private final int length;

  BufferSlice(BufferArena arena, BufferArena.Region region, int offsetInRegion, int length) {
    this.arena = arena;
    this.region = region;
    this.offsetInRegion = offsetInRegion;
    this.length = length;
  }

  /**
   * The part {@code [start, start + length)} of this slice, as a slice of its own that follows
   * the arena like this one (a channel's place inside a coalesced message). Creates an object: for
   * building only.
   */
  BufferSlice part(int start, int partLength) {
    if (start < 0 || partLength <= 0 || start > length - partLength) {
      throw new IllegalArgumentException("part outside the slice: start=" + start + ", length="
          + partLength + ", sliceLength=" + length);
    }
    return new BufferSlice(arena, region, offsetInRegion + start, partLength);
  }

  /** The arena's current array. */
  public double[] array() {
    return arena.array();
  }

  /** Index of the slice's first element in {@link #array()}. */
  public int offset() {
    return region.start + offsetInRegion;
  }

  /** Number of elements. */
  public int length() {
    return length;
  }

  /** The group whose region holds the slice; null in the on-demand region. */
  public BufferGroup group() {
    return region.group;
  }

  /** The arena the slice belongs to. */
  public BufferArena arena() {
    return arena;
  }

  @Override
  public String toString() {
    return "BufferSlice[offset=" + offset() + ", length=" + length + ", group=" + region.group
        + "]";
  }
}
