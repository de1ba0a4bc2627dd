package org.metope.mesh;

import java.util.Locale;

/**
 * Estimates what a mesh needs before it is allocated, so that a mesh that cannot fit is refused
 * with one sentence naming the block count and the memory needed and available instead of an
 * {@link OutOfMemoryError} minutes later. Three figures:
 *
 * <ul>
 *   <li>the block tree, which every rank holds whole: about {@link #TREE_BYTES_PER_BLOCK} bytes
 *       per block (its location, hash-set entry, gid, cost and list slots);
 *   <li>the blocks of a rank, with their neighbour lists: at least {@link #LOCAL_BLOCK_BYTES}
 *       each (measured: 262,144 blocks of a 3D mesh need between 0.7 and 1 GiB);
 *   <li>the field arena of a rank, one {@code double[]} holding every dense field of every block
 *       of the rank (ghosts, stage copies, fluxes and coarse buffers included), which also cannot
 *       exceed one Java array.
 * </ul>
 *
 * Available memory is the JVM's heap limit ({@link Runtime#maxMemory()}, {@code -Xmx}); the
 * fields may take half of it. The estimates are lower bounds, so a mesh near the limit may still
 * run out of memory.
 */
public final class MemoryBudget {
  /** A lower bound of the bytes one block costs in the tree and the block lists of a rank. */
  public static final long TREE_BYTES_PER_BLOCK = 200;
  /** A lower bound of the bytes one block of this rank costs with its neighbour lists. */
  public static final long LOCAL_BLOCK_BYTES = 2048;
  /**
   * The fields and the tree may take at most 1/FIELD_SHARE of the heap: boundary buffers, the
   * arrays a remesh moves blocks with and the collector's room need the rest.
   */
  static final int FIELD_SHARE = 2;
  /** The most values one Java array (a rank's field arena) can hold. */
  public static final long MAX_ARENA_VALUES = Integer.MAX_VALUE - 16;

  private MemoryBudget() {}

  /** The heap this JVM may use, in bytes. */
  public static long available() {
    return Runtime.getRuntime().maxMemory();
  }

  /** Bytes as a short figure in GiB or MiB, e.g. {@code 12.5 GiB}. */
  public static String format(double bytes) {
    double gib = bytes / (1L << 30);
    if (gib >= 1e6) {
      return String.format(Locale.ROOT, "%.3g GiB", gib);
    }
    return gib >= 1 ? String.format(Locale.ROOT, "%.1f GiB", gib)
        : String.format(Locale.ROOT, "%.1f MiB", bytes / (1L << 20));
  }

  /**
   * Refuses a mesh of {@code totalBlocks} blocks, {@code localBlocks} of them on this rank, whose
   * tree and block objects alone cannot fit in the heap.
   *
   * @throws DriverError saying what the mesh needs and what is available
   */
  static void requireBlocks(int localBlocks, int totalBlocks) {
    double needed = (double) TREE_BYTES_PER_BLOCK * totalBlocks
        + (double) LOCAL_BLOCK_BYTES * localBlocks;
    if (needed > available()) {
      throw new DriverError("the mesh has " + totalBlocks + " MeshBlocks, " + localBlocks
          + " on this rank, whose tree and block lists alone need " + format(needed)
          + ", more than the " + format(available()) + " this JVM may use (raise -Xmx in"
          + " METOPE_JAVA_OPTS, or use more ranks or fewer, larger blocks)");
    }
  }

  /**
   * Refuses, before any block is made, a mesh whose root grid alone ({@code rootBlocks} blocks,
   * counted in a long: a product of three root counts can pass 2^31) cannot fit on {@code nranks}
   * ranks: building the tree of tens of millions of blocks first took minutes before the refusal.
   *
   * @throws DriverError saying what the mesh needs and what is available
   */
  static void requireRootGrid(long rootBlocks, int nranks) {
    if (rootBlocks > Integer.MAX_VALUE) {
      throw new DriverError("the mesh has " + rootBlocks + " root MeshBlocks, more than a mesh"
          + " can number (2^31 - 1): use fewer, larger blocks");
    }
    long local = (rootBlocks + nranks - 1) / nranks;
    double needed = (double) TREE_BYTES_PER_BLOCK * rootBlocks
        + (double) LOCAL_BLOCK_BYTES * local;
    if (needed > available()) {
      throw new DriverError("the mesh's root grid alone has " + rootBlocks + " MeshBlocks, "
          + local + " per rank on " + nranks + ", whose tree and block lists need "
          + format(needed) + ", more than the " + format(available()) + " this JVM may use"
          + " (raise -Xmx in METOPE_JAVA_OPTS, or use more ranks or fewer, larger blocks)");
    }
  }

  /**
   * Refuses a field arena of {@code values} doubles for {@code localBlocks} of the mesh's {@code
   * totalBlocks} blocks, each {@code shape} cells with ghosts ({@code 36x36x36}), when it exceeds
   * one Java array or, with the tree, the heap.
   *
   * @throws DriverError saying what the mesh needs and what is available
   */
  static void requireArena(long values, int localBlocks, int totalBlocks, String shape) {
    long treeBytes = TREE_BYTES_PER_BLOCK * totalBlocks + LOCAL_BLOCK_BYTES * localBlocks;
    String blocks = "the mesh has " + totalBlocks + " MeshBlocks of " + shape
        + " cells with ghosts, " + localBlocks + " on this rank";
    if (values > MAX_ARENA_VALUES) {
      throw new DriverError(blocks + "; their fields need " + (values == Long.MAX_VALUE
          ? "more" : Long.toString(values)) + " values, more than one Java array holds (2^31):"
          + " use more ranks, fewer or smaller blocks, or fewer fields");
    }
    double needed = 8.0 * values + treeBytes;
    if (needed > available() / FIELD_SHARE) {
      throw new DriverError(blocks + "; their fields and tree need " + format(needed)
          + ", more than half of the " + format(available()) + " this JVM may use (the rest is"
          + " for boundary buffers and remeshing; raise -Xmx in METOPE_JAVA_OPTS, or use more"
          + " ranks or fewer cells)");
    }
  }
}
