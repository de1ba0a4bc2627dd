package org.metope.bvals;

import org.metope.kernels.table.BlockLayout;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;

/**
 * Where a boundary row's block data lie in the arena: the shape and start of a block's data,
 * coarse buffer and fluxes of one field, in the partition's container ({@link ArenaLayout}'s
 * instances, {@link MeshData}'s offsets).
 */
final class ArenaPlaces {
  private ArenaPlaces() {}

  /** The shape of a block's data of {@code field} in this partition's container. */
  static BlockLayout dataShape(MeshData md, CacheBuildScratch s, int field) {
    ArenaLayout layout = md.layout();
    return s.shape(layout, layout.dataInstance(field, md.container()));
  }

  /**
   * Where block {@code block}'s data of {@code field} starts. An unallocated field's rows are
   * skipped by every kernel ({@code allocated[b] == 0}), so they carry offset 0 as a placeholder;
   * the same holds for the coarse buffer and the fluxes below.
   */
  static int dataOffset(MeshData md, int field, int block) {
    return md.isAllocated(field, block) ? md.dataOffset(field, block) : 0;
  }

  /** The shape of a block's coarse buffer of {@code field}. */
  static BlockLayout coarseShape(MeshData md, CacheBuildScratch s, int field) {
    ArenaLayout layout = md.layout();
    int inst = layout.coarseInstance(field);
    if (inst < 0) {
      throw new IllegalStateException("field has no coarse buffer on a multilevel mesh: field="
          + md.state().field(field).name());
    }
    return s.shape(layout, inst);
  }

  static int coarseOffset(MeshData md, int field, int block) {
    return md.isAllocated(field, block) ? md.coarseOffset(field, block) : 0;
  }

  /** The shape of a block's fluxes of {@code field} through {@code direction} faces. */
  static BlockLayout fluxShape(MeshData md, CacheBuildScratch s, int field,
      int direction) {
    ArenaLayout layout = md.layout();
    int inst = layout.fluxInstance(field, direction);
    if (inst < 0) {
      throw new IllegalStateException("field has no fluxes in direction " + direction + ": field="
          + md.state().field(field).name());
    }
    return s.shape(layout, inst);
  }

  static int fluxOffset(MeshData md, int field, int direction, int block) {
    return md.isAllocated(field, block) ? md.fluxOffset(field, direction, block) : 0;
  }
}
