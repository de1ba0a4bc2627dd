package org.metope.bvals;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.metope.bvals.channel.CommBuffer;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;

/**
 * What one thread's cache builds write while they walk the boundaries, kept from build to build
 * so that a rebuild allocates nothing per boundary (the kernel tables' builders, the subsets, the
 * boxes, one layout per field instance). Everything here grows to the largest partition this
 * thread built and is cleared, never shrunk, at the start of a build; a finished {@link
 * BvarsSubCache} holds copies, never these arrays.
 *
 * <p>The fields from {@link #block} to {@link #nb} are the boundary being added: block {@link
 * #block} of the partition ({@link #meshBlock}), field {@link #field}, neighbour {@link #nb}.
 */
final class CacheBuildScratch {
  final BoundaryTableBuilder table = new BoundaryTableBuilder();
  final BoundaryTableBuilder prores = new BoundaryTableBuilder();
  /** The prores rows of each buffer subset, by {@link BvarsSubCache#RESTRICTION} and the rest. */
  final IntArrayList[] subsets = {new IntArrayList(), new IntArrayList(), new IntArrayList()};
  final IntArrayList sparse = new IntArrayList();
  final IntArrayList blocks = new IntArrayList();
  final IntArrayList fields = new IntArrayList();
  /** Per boundary: 1 where its field is allocated on its block. */
  final IntArrayList allocated = new IntArrayList();
  /** Per prores row: the boundary it belongs to. */
  final IntArrayList proresOwner = new IntArrayList();
  final List<CommBuffer> buffers = new ArrayList<>();
  /** Rows a build took from the plans before a remesh ({@code PreviousPlans}). */
  int relocated;
  /** A boundary's box, {@code is, ie, js, je, ks, ke}. */
  final int[] box = new int[6];
  /** The cell box of a boundary's refinement rows, in coarse space. */
  final int[] cellBox = new int[6];
  /** The box of a boundary's refinement row: {@link #cellBox}, or all elements' box. */
  final int[] coarseBox = new int[6];

  int block;
  MeshBlock meshBlock;
  FieldInfo field;
  /** {@link #field}'s index in the list walked, and {@link #nb}'s in the block's neighbours. */
  int fieldIndex;
  int neighborIndex;
  NeighborBlock nb;
  /** The block {@link #hasCoarserNeighbor} was found for (a block's boundaries come together). */
  MeshBlock coarserCheckedFor;
  boolean hasCoarserNeighbor;
  /** The field instance {@code PreviousPlans} last moved an offset in (a hint; any value). */
  int lastMovedInstance;
  /** The blocks ranked below the others of their level for shared values (usually none). */
  Set<LogicalLocation> newlyRefined = Set.of();

  private ArenaLayout shapesOf;
  private BlockLayout[] shapes = new BlockLayout[0];

  /**
   * Sets the boundary a visitor is given: of field {@code field} ({@code fieldIndex} in the list
   * walked) with neighbour {@code neighborIndex}, {@code nb}, of partition block {@code block}.
   */
  void atBoundary(int block, MeshBlock meshBlock, FieldInfo field, int fieldIndex,
      int neighborIndex, NeighborBlock nb) {
    this.block = block;
    this.meshBlock = meshBlock;
    this.field = field;
    this.fieldIndex = fieldIndex;
    this.neighborIndex = neighborIndex;
    this.nb = nb;
  }

  /** Empties every list for a new build; the arrays stay. */
  void clear() {
    table.clear();
    prores.clear();
    for (IntArrayList subset : subsets) {
      subset.clear();
    }
    sparse.clear();
    blocks.clear();
    fields.clear();
    allocated.clear();
    proresOwner.clear();
    buffers.clear();
    relocated = 0;
    meshBlock = null;
    coarserCheckedFor = null;
    field = null;
    nb = null;
  }

  /**
   * Instance {@code inst}'s block as a kernel sees it, at offset 0 (every element's components
   * are its planes): made once per instance and arena layout.
   */
  BlockLayout shape(ArenaLayout layout, int inst) {
    if (layout != shapesOf) {
      shapesOf = layout;
      shapes = new BlockLayout[layout.numInstances()];
    }
    BlockLayout s = shapes[inst];
    if (s == null) {
      s = new BlockLayout(0, layout.numElements(inst) * layout.numComponents(inst),
          layout.nk(inst), layout.nj(inst), layout.ni(inst));
      shapes[inst] = s;
    }
    return s;
  }
}
