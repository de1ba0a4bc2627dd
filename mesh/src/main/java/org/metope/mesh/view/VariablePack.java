package org.metope.mesh.view;

import java.util.Arrays;
import java.util.List;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Several fields on every block of a partition as one array {@code (b, v, k, j, i)}, where {@code
 * v} runs over every component of every field of the pack, field after field (Parthenon's {@code
 * VariablePack} / {@code SparsePack}): field {@code f} of the pack is {@code v} in {@link
 * #lowerBound}{@code (f) ..} {@link #upperBound}{@code (f)}, inclusive, as Parthenon's {@code
 * GetLowerBound}/{@code GetUpperBound}. A sparse field not allocated on a block is marked by
 * {@link #isAllocated}{@code (b, v)}; kernels skip it there, as Parthenon's sparse packs give such
 * a block an empty range.
 *
 * <p>A pack of face, edge or node fields (one topology per pack) is read by element, {@code
 * get(F1, b, v, k, j, i)} (Parthenon's {@code pack(b, TE::F1, v, k, j, i)}); the accessors
 * without an element read each field's first element.
 *
 * <p>Made by {@link PackDescriptor#pack}, and kept by the partition while its allocation is
 * unchanged ({@link #isCurrent}); fetch it once per launch. Each access is one read of the offset
 * table {@code [b * numVars + v]} (the component's start, taken from {@link ArenaLayout}) plus the
 * cell strides, which every field of a pack shares.
 */
public final class VariablePack {
  private final double[] a;
  /** Start of each component {@code [b * numVars + v]}; -1 where unallocated. */
  private final int[] offsets;
  /** Start of each component's fluxes {@code [(b * 3 + direction - 1) * numVars + v]}, or null. */
  private final int[] fluxOffsets;
  /** Distance between the elements of pack component {@code v} ({@code F1} to {@code F2}). */
  private final int[] elementStrides;
  private final int numElements;
  private final int kStride;
  private final int jStride;
  private final int numVars;
  private final int numBlocks;
  private final int nk;
  private final int nj;
  private final int ni;
  private final int[] lower;
  private final int[] upper;
  private final int[] fieldIds;
  /** The partition's {@link MeshData#allocationVersion()} when the tables were made. */
  private final long version;

  VariablePack(MeshData md, List<FieldInfo> fields, boolean fluxes) {
    ArenaLayout layout = md.layout();
    this.version = md.allocationVersion();
    this.a = md.data();
    this.numBlocks = md.numBlocks();
    this.lower = new int[fields.size()];
    this.upper = new int[fields.size()];
    this.fieldIds = new int[fields.size()];
    int vars = 0;
    for (int f = 0; f < fields.size(); f++) {
      fieldIds[f] = fields.get(f).id();
      lower[f] = vars;
      vars += layout.numComponents(layout.dataInstance(fieldIds[f], md.container()));
      upper[f] = vars - 1;
    }
    this.numVars = vars;
    int first = fields.isEmpty() ? -1 : layout.dataInstance(fieldIds[0], md.container());
    this.kStride = first < 0 ? 0 : layout.kStride(first);
    this.jStride = first < 0 ? 0 : layout.jStride(first);
    this.nk = first < 0 ? 0 : layout.nk(first);
    this.nj = first < 0 ? 0 : layout.nj(first);
    this.ni = first < 0 ? 0 : layout.ni(first);
    this.numElements = first < 0 ? 1 : layout.numElements(first);
    this.elementStrides = new int[numVars];
    this.offsets = new int[numBlocks * numVars];
    this.fluxOffsets = fluxes ? new int[numBlocks * 3 * numVars] : null;
    if (fluxes) {
      Arrays.fill(fluxOffsets, -1);
    }
    for (int f = 0; f < fields.size(); f++) {
      int inst = layout.dataInstance(fieldIds[f], md.container());
      Arrays.fill(elementStrides, lower[f], upper[f] + 1, layout.elementStride(inst));
      fill(offsets, numVars, ViewSetup.offsets(md, inst), lower[f], upper[f],
          layout.componentStride(inst), 1, 0);
      if (fluxes) {
        for (int d = 1; d <= layout.fluxDirections(); d++) {
          int fluxInst = layout.fluxInstance(fieldIds[f], d);
          fill(fluxOffsets, numVars, ViewSetup.offsets(md, fluxInst), lower[f], upper[f],
              layout.componentStride(fluxInst), 3, d - 1);
        }
      }
    }
  }

  /**
   * Writes the start of components {@code lo..hi} of each block into {@code table[(b * blockRows
   * + row) * numVars + v]}, -1 where the block's start is -1.
   */
  private static void fill(int[] table, int numVars, int[] blockStarts, int lo, int hi,
      int componentStride, int blockRows, int row) {
    for (int b = 0; b < blockStarts.length; b++) {
      for (int v = lo; v <= hi; v++) {
        table[(b * blockRows + row) * numVars + v] =
            blockStarts[b] < 0 ? -1 : blockStarts[b] + (v - lo) * componentStride;
      }
    }
  }

  /**
   * Whether this pack still matches partition {@code md}: no allocation change on its blocks
   * since it was made, so its offsets and arena are {@code md}'s.
   */
  boolean isCurrent(MeshData md) {
    return version == md.allocationVersion() && a == md.data();
  }

  /** The value of pack component {@code v} at cell {@code (k, j, i)} of partition block {@code b}. */
  public double get(int b, int v, int k, int j, int i) {
    return a[index(b, v, k, j, i)];
  }

  /** Sets the value of pack component {@code v} at cell {@code (k, j, i)}. */
  public void set(int b, int v, int k, int j, int i, double value) {
    a[index(b, v, k, j, i)] = value;
  }

  /** The arena index of pack component {@code v} at cell {@code (k, j, i)} of block {@code b}. */
  public int index(int b, int v, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      check(offsets, b * numVars + v, b, v, k, j, i);
    }
    return offsets[b * numVars + v] + k * kStride + j * jStride + i;
  }

  /** The value of pack component {@code v} on element {@code el} at {@code (k, j, i)} of {@code b}. */
  public double get(TopologicalElement el, int b, int v, int k, int j, int i) {
    return a[index(el, b, v, k, j, i)];
  }

  /** Sets the value of pack component {@code v} on element {@code el} at {@code (k, j, i)}. */
  public void set(TopologicalElement el, int b, int v, int k, int j, int i, double value) {
    a[index(el, b, v, k, j, i)] = value;
  }

  /**
   * The arena index of pack component {@code v} on element {@code el} at {@code (k, j, i)} of
   * block {@code b}; {@code el} must be one of the pack's elements.
   */
  public int index(TopologicalElement el, int b, int v, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      ViewChecks.require("element index of " + el, el.elementIndex(), numElements, "pack");
      check(offsets, b * numVars + v, b, v, k, j, i);
    }
    return offsets[b * numVars + v] + el.elementIndex() * elementStrides[v] + k * kStride
        + j * jStride + i;
  }

  /** The flux of pack component {@code v} through the lower {@code direction} face of a cell. */
  public double flux(int b, int direction, int v, int k, int j, int i) {
    return a[fluxIndex(b, direction, v, k, j, i)];
  }

  /** Sets the flux of pack component {@code v} through the lower {@code direction} face. */
  public void setFlux(int b, int direction, int v, int k, int j, int i, double value) {
    a[fluxIndex(b, direction, v, k, j, i)] = value;
  }

  /** The arena index of the flux {@code (direction, v, k, j, i)} of block {@code b}. */
  public int fluxIndex(int b, int direction, int v, int k, int j, int i) {
    int slot = fluxSlot(b, direction, v);
    if (ViewChecks.ENABLED) {
      check(fluxTable(), slot, b, v, k, j, i);
    }
    return fluxOffsets[slot] + k * kStride + j * jStride + i;
  }

  private int fluxSlot(int b, int direction, int v) {
    if (ViewChecks.ENABLED) {
      ViewChecks.require("direction - 1", direction - 1, 3, "pack");
    }
    return (b * 3 + direction - 1) * numVars + v;
  }

  /** The flux offset table; with checks on, a pack without fluxes stops here with a sentence. */
  private int[] fluxTable() {
    if (ViewChecks.ENABLED && fluxOffsets == null) {
      throw new IllegalStateException("pack was built without fluxes: use"
          + " PackDescriptor.withFluxes");
    }
    return fluxOffsets;
  }

  /**
   * The distance between the numbers of neighbouring cells along {@code direction} (1..3), for
   * kernels on a {@link FlatRange}: cell {@code c - stride(X1DIR)} is the one below {@code c}
   * along x1.
   */
  public int stride(int direction) {
    return FlatRange.stride(direction, jStride, kStride);
  }

  /**
   * {@code box} in this pack's cell numbering, for {@link ParFor#flat}.
   *
   * @throws IllegalArgumentException when the box leaves the pack's blocks
   */
  public FlatRange flatRange(IndexBox box) {
    return FlatRange.of(box, nk, nj, ni, jStride, kStride);
  }

  /** The value of pack component {@code v} at cell number {@code c} of block {@code b}. */
  public double getFlat(int b, int v, int c) {
    return a[flatIndex(offsets, b * numVars + v, b, v, c)];
  }

  /** Sets the value of pack component {@code v} at cell number {@code c}. */
  public void setFlat(int b, int v, int c, double value) {
    a[flatIndex(offsets, b * numVars + v, b, v, c)] = value;
  }

  /** The flux of component {@code v} through the lower {@code direction} face of cell {@code c}. */
  public double fluxFlat(int b, int direction, int v, int c) {
    return a[flatIndex(fluxTable(), fluxSlot(b, direction, v), b, v, c)];
  }

  /** Sets the flux of component {@code v} through the lower {@code direction} face of {@code c}. */
  public void setFluxFlat(int b, int direction, int v, int c, double value) {
    a[flatIndex(fluxTable(), fluxSlot(b, direction, v), b, v, c)] = value;
  }

  private int flatIndex(int[] table, int slot, int b, int v, int c) {
    if (ViewChecks.ENABLED) {
      check(table, slot, b, v, 0, 0, 0);
      ViewChecks.require("c", c, nk * nj * ni, "pack");
    }
    return table[slot] + c;
  }

  private void check(int[] table, int slot, int b, int v, int k, int j, int i) {
    ViewChecks.require("b", b, numBlocks, "pack");
    ViewChecks.require("v", v, numVars, "pack");
    if (table[slot] < 0) {
      throw new IllegalStateException("pack component v=" + v + " has no storage on partition"
          + " block b=" + b + " (check isAllocated(b, v))");
    }
    ViewChecks.require("k", k, nk, "pack");
    ViewChecks.require("j", j, nj, "pack");
    ViewChecks.require("i", i, ni, "pack");
  }

  /** Whether pack component {@code v} has storage on partition block {@code b}. */
  public boolean isAllocated(int b, int v) {
    return offsets[b * numVars + v] >= 0;
  }

  /** First pack component of pack field {@code f}. */
  public int lowerBound(int f) {
    return lower[f];
  }

  /** Last pack component (inclusive) of pack field {@code f}. */
  public int upperBound(int f) {
    return upper[f];
  }

  /** The field id of pack field {@code f}. */
  public int fieldId(int f) {
    return fieldIds[f];
  }

  /** Fields in the pack. */
  public int numFields() {
    return fieldIds.length;
  }

  /** Components in the pack, over all its fields (Parthenon's {@code GetDim(4)}). */
  public int numVars() {
    return numVars;
  }

  /** Topological elements of the pack's fields: 3 for face and edge fields, else 1. */
  public int numElements() {
    return numElements;
  }

  /** Blocks in the partition. */
  public int numBlocks() {
    return numBlocks;
  }
}
