package org.metope.bvals;

import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.ChannelRegistry;
import org.metope.bvals.channel.ChannelVector;
import org.metope.kernels.table.BoundaryTable;

/**
 * The plan for one direction (send or receive) of one {@link BoundaryType} on one partition
 * (Parthenon's {@code BvarsSubCache_t}): the boundary descriptors as a kernel table, the channel
 * buffers in the same order, and the refinement work as a second table with its buffer subsets.
 * Its boundaries and channels are fixed once built, and it is rebuilt when the layout or the
 * allocations it was built against change; per step only the table's per-step arrays and the
 * buffer offsets of sparse receivers are rewritten ({@code BoundaryExchange}). A rebuild on the
 * same channels keeps the replaced plan's channel vector and arrays and writes its tables over
 * ({@code BoundaryCacheBuilder#build}); the exchange asks for the plan afresh in every task, so
 * no task holds a plan across a rebuild.
 *
 * <p>Boundary {@code b} of {@link #table} is channel {@code b} of {@link #channels} (cache order),
 * and belongs to partition block {@link #block}{@code [b]} and field {@link #field}{@code [b]}.
 * {@link #bufferSubsets} is a matrix: row {@link #RESTRICTION} lists the {@link #prores}
 * boundaries to restrict, row {@link #PROLONGATION} those to prolongate, row {@link
 * #INTERNAL_PROLONGATION} the face, edge and node fields' fills inside coarse elements (after
 * the prolongation), each row holding {@link #bufferSubsetSizes}{@code [row]} indices.
 */
final class BvarsSubCache {
  /** Row of {@link #bufferSubsets}: restriction into coarse buffers. */
  static final int RESTRICTION = 0;
  /** Row of {@link #bufferSubsets}: prolongation from coarse buffers into fine ghosts. */
  static final int PROLONGATION = 1;
  /** Row of {@link #bufferSubsets}: prolongation inside coarse elements, a second pass. */
  static final int INTERNAL_PROLONGATION = 2;

  final BoundaryType type;
  final boolean sender;
  final BoundaryTable table;
  final ChannelVector channels;
  /** The channels it was built on: a remesh makes new ones. */
  final ChannelRegistry registry;
  final int[] block;
  final int[] field;
  /** Boundaries whose channel is sparse: their buffer slice may change between steps. */
  final int[] sparseBoundaries;
  final BoundaryTable prores;
  /** Per {@link #prores} row, the boundary it belongs to (ascending). */
  final int[] proresOwner;
  final int[][] bufferSubsets;
  final int[] bufferSubsetSizes;
  /** The partition's allocation version and the buffer arena's layout version it was built on. */
  final long allocationVersion;
  final long arenaLayoutVersion;

  BvarsSubCache(BoundaryType type, boolean sender, BoundaryTable table, ChannelVector channels,
      ChannelRegistry registry, int[] block, int[] field, int[] sparseBoundaries,
      BoundaryTable prores, int[] proresOwner, int[][] bufferSubsets, long allocationVersion,
      long arenaLayoutVersion) {
    this.type = type;
    this.sender = sender;
    this.table = table;
    this.channels = channels;
    this.registry = registry;
    this.block = block;
    this.field = field;
    this.sparseBoundaries = sparseBoundaries;
    this.prores = prores;
    this.proresOwner = proresOwner;
    this.bufferSubsets = bufferSubsets;
    this.bufferSubsetSizes = new int[] {bufferSubsets[0].length, bufferSubsets[1].length,
        bufferSubsets[2].length};
    this.allocationVersion = allocationVersion;
    this.arenaLayoutVersion = arenaLayoutVersion;
    channels.crossRank(table.crossRank);
  }

  /** Number of boundaries. */
  int size() {
    return table.size;
  }
}
