package org.metope.bvals;

import java.util.function.IntUnaryOperator;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.ResolvedState;

/**
 * A ghost-exchange plan of one stage container's partition carried over to another container's
 * partition over the same blocks, instead of built again: the boundaries, channels and geometry
 * are the same, and a dense field's data instance in either container holds the blocks at the
 * same distances from each other, so only the data offsets move, by one distance per field. A
 * remesh then builds each partition's plan once, not once per container.
 */
final class ContainerPlans {
  private ContainerPlans() {}

  /**
   * {@code from}, built for {@code fromMd}, for {@code md}; null when some boundary's field is
   * sparse (its blocks' instances are placed one by one as they are allocated).
   */
  static BvarsSubCache derive(BvarsSubCache from, MeshData fromMd, MeshData md,
      long arenaLayoutVersion) {
    ResolvedState state = md.state();
    if (anySparse(state) && anySparse(state, from.field)) {
      return null;
    }
    IntUnaryOperator move = dataOffsetMove(md.layout(), state, fromMd.container(), md.container());
    return new BvarsSubCache(from.type, from.sender, from.table.withOffsets(move), from.channels,
        from.registry, from.block, from.field, from.sparseBoundaries,
        from.prores.withOffsets(move), from.proresOwner, from.bufferSubsets, md.allocationVersion(),
        arenaLayoutVersion);
  }

  /** Whether {@code state} has a sparse field: without one, no boundary's field is. */
  private static boolean anySparse(ResolvedState state) {
    for (int f = 0; f < state.numFields(); f++) {
      if (state.field(f).isSparse()) {
        return true;
      }
    }
    return false;
  }

  /** Whether a boundary's field of {@code fields}, one per boundary, is sparse. */
  private static boolean anySparse(ResolvedState state, int[] fields) {
    int checked = -1;
    for (int f : fields) {
      // A block's boundaries come field by field: one look-up per run of one field.
      if (f != checked && state.field(f).isSparse()) {
        return true;
      }
      checked = f;
    }
    return false;
  }

  /**
   * Maps an arena offset inside a dense field's data instance of container {@code from} to the
   * same block and cell of its instance in container {@code to}; other offsets (coarse buffers,
   * fluxes, instances both containers share) stay.
   */
  private static IntUnaryOperator dataOffsetMove(ArenaLayout layout, ResolvedState state,
      int from, int to) {
    int n = state.numFields();
    // Only the fields whose instances differ, so that a row's offset is compared with those alone.
    int[] start = new int[n];
    int[] end = new int[n];
    int[] target = new int[n];
    int moving = 0;
    for (int f = 0; f < n; f++) {
      int a = layout.dataInstance(f, from);
      int b = layout.dataInstance(f, to);
      if (state.field(f).isSparse() || a < 0 || b < 0 || a == b) {
        continue;
      }
      start[moving] = layout.offset(a, 0);
      end[moving] = start[moving] + layout.numBlocks() * layout.blockLength(a);
      target[moving] = layout.offset(b, 0);
      moving++;
    }
    int ranges = moving;
    return offset -> {
      for (int r = 0; r < ranges; r++) {
        if (offset >= start[r] && offset < end[r]) {
          return offset - start[r] + target[r];
        }
      }
      return offset;
    };
  }
}
