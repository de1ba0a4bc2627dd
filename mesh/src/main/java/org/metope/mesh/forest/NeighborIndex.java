package org.metope.mesh.forest;

import java.util.List;

/**
 * One of the 27 geometric elements of a block: the volume, a face, an edge or a corner, written
 * as the vector {@code (ox1, ox2, ox3)}, each component -1, 0 or 1, from the block's centre to the
 * element's centre. {@code (0, 0, 1)} is the outer x3 face, {@code (0, 1, -1)} an edge, {@code
 * (1, 1, 1)} a corner.
 *
 * <p>The dense index is {@code (ox1 + 1) + 3 (ox2 + 1) + 9 (ox3 + 1)}, from 0 to 26, the volume
 * being 13. Two blocks that share part of an element see it from opposite sides: the element of
 * the other block is the {@linkplain #reverse() reverse} vector, index {@code 26 - index}. A
 * communication channel is named by the sender's element, so that a block which is its own
 * periodic neighbour has one channel per element it shares with itself.
 *
 * <p>Instances are interned: compare with {@code ==} or {@link #index()}.
 */
public final class NeighborIndex {
  /** Number of geometric elements of a block. */
  public static final int COUNT = 27;

  private static final NeighborIndex[] ALL = new NeighborIndex[COUNT];

  static {
    for (int i = 0; i < COUNT; i++) {
      ALL[i] = new NeighborIndex(i % 3 - 1, (i / 3) % 3 - 1, i / 9 - 1);
    }
  }

  /** The block's own volume, {@code (0, 0, 0)}. */
  public static final NeighborIndex VOLUME = ALL[13];

  private final int ox1;
  private final int ox2;
  private final int ox3;

  private NeighborIndex(int ox1, int ox2, int ox3) {
    this.ox1 = ox1;
    this.ox2 = ox2;
    this.ox3 = ox3;
  }

  /** The element with offset vector {@code (ox1, ox2, ox3)}, each in {-1, 0, 1}. */
  public static NeighborIndex of(int ox1, int ox2, int ox3) {
    if (ox1 < -1 || ox1 > 1 || ox2 < -1 || ox2 > 1 || ox3 < -1 || ox3 > 1) {
      throw new IllegalArgumentException(
          "offsets must be -1, 0 or 1: ox1=" + ox1 + " ox2=" + ox2 + " ox3=" + ox3);
    }
    return ALL[(ox1 + 1) + 3 * (ox2 + 1) + 9 * (ox3 + 1)];
  }

  /** The element with dense index {@code index} (0 to 26). */
  public static NeighborIndex ofIndex(int index) {
    if (index < 0 || index >= COUNT) {
      throw new IllegalArgumentException("index=" + index + " outside [0, 26]");
    }
    return ALL[index];
  }

  /** All 27 elements in dense-index order. */
  public static List<NeighborIndex> all() {
    return List.of(ALL);
  }

  /** Dense index {@code (ox1 + 1) + 3 (ox2 + 1) + 9 (ox3 + 1)}. */
  public int index() {
    return (ox1 + 1) + 3 * (ox2 + 1) + 9 * (ox3 + 1);
  }

  /** The same shared element seen from the other block: the opposite vector. */
  public NeighborIndex reverse() {
    return ALL[COUNT - 1 - index()];
  }

  /** Offset along x1. */
  public int ox1() {
    return ox1;
  }

  /** Offset along x2. */
  public int ox2() {
    return ox2;
  }

  /** Offset along x3. */
  public int ox3() {
    return ox3;
  }

  /** Offset along {@code axis} (0 = x1, 1 = x2, 2 = x3). */
  public int offset(int axis) {
    return switch (axis) {
      case 0 -> ox1;
      case 1 -> ox2;
      case 2 -> ox3;
      default -> throw new IllegalArgumentException("axis=" + axis);
    };
  }

  /** Number of non-zero offsets: 0 for the volume, 1 for a face, 2 for an edge, 3 for a corner. */
  public int codimension() {
    return Math.abs(ox1) + Math.abs(ox2) + Math.abs(ox3);
  }

  /** Whether this is a face (one non-zero offset). */
  public boolean isFace() {
    return codimension() == 1;
  }

  /** Whether this is an edge (two non-zero offsets). */
  public boolean isEdge() {
    return codimension() == 2;
  }

  /** Whether this is a corner (three non-zero offsets). */
  public boolean isCorner() {
    return codimension() == 3;
  }

  /** The offset vector, e.g. {@code (1, 0, -1)}. */
  @Override
  public String toString() {
    return "(" + ox1 + ", " + ox2 + ", " + ox3 + ")";
  }
}
