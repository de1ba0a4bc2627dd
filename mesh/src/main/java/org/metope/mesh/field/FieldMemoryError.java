package org.metope.mesh.field;

import java.util.Locale;

/**
 * The JVM's heap cannot hold the field storage of a rank's blocks. The message is the one line the
 * user sees (entry points print it without a stack trace and exit non-zero): the block count, the
 * memory the arena needs and the heap's limit, and what to change.
 */
public final class FieldMemoryError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param numBlocks the blocks of the rank whose storage was being allocated
   * @param doubles the length of the arena that could not be allocated
   * @param maxHeapBytes the JVM's heap limit
   */
  public FieldMemoryError(int numBlocks, long doubles, long maxHeapBytes) {
    super(String.format(Locale.ROOT, "out of memory: the fields of %d blocks on this rank need"
        + " %s in one arena (besides the arena of the mesh before a remesh), more than is"
        + " free in the JVM heap of %s; run on more ranks or machines, use fewer or smaller"
        + " blocks, or give the JVM more memory with METOPE_JAVA_OPTS=-Xmx<size>", numBlocks,
        size(doubles * 8.0), size(maxHeapBytes)));
  }

  /** Bytes in GiB, or in MiB below one GiB (a small heap's figures would read 0.00 GiB). */
  private static String size(double bytes) {
    double gib = bytes / (1L << 30);
    return gib >= 1 ? String.format(Locale.ROOT, "%.2f GiB", gib)
        : String.format(Locale.ROOT, "%.1f MiB", bytes / (1L << 20));
  }
}
