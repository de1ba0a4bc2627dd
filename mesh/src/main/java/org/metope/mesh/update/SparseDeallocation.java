package org.metope.mesh.update;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SparseConfig;
import org.metope.tasking.TaskStatus;

/**
 * Frees sparse fields that have stayed negligible (Parthenon's {@code Update::SparseDealloc}): at
 * the end of a cycle, a block's sparse field whose every value, ghosts included, has magnitude at
 * most the deallocation threshold counts one more cycle; any larger value resets the count; once
 * the count exceeds {@code dealloc_count} the field is freed on that block. Counters live in the
 * {@link FieldStorage}, one per field and block, so that a remesh moves them with the blocks.
 *
 * <p><b>Which fields.</b> Only those {@linkplain #isFreedByFramework freed by the framework}:
 * sparse fields that the stage's boundary exchange fills ({@code FILL_GHOST}, not {@code
 * STATIC}). Their allocation follows the data: a block allocates one when a neighbour sends
 * values above the allocation threshold, so the framework also frees it when they have gone. A
 * sparse field without {@code FILL_GHOST} (typically a derived field that a package allocates in
 * its fill-derived callback, as the advection example's {@code
 * one_minus_sqrt_one_minus_advected_sq} pool) is allocated by its package only, and its package
 * decides when it goes: freeing it behind the package's back would drop values the package has
 * just written and that outputs still read. Parthenon frees every sparse field (its {@code
 * Metadata::Sparse} control variables); its examples have no sparse field of the second kind.
 *
 * <p>The {@code FluxDriver} adds {@link #sparseDealloc} as the last task of the last stage's lists,
 * after the boundary exchange and derived fields and before the time step and refinement tags;
 * with sparse disabled it does nothing.
 */
public final class SparseDeallocation {
  private final SparseConfig settings;

  /** Deallocation with the thresholds and count of {@code settings}. */
  public SparseDeallocation(SparseConfig settings) {
    this.settings = settings;
  }

  /**
   * The deallocation a driver runs for fields {@code state}: null when sparse is disabled or no
   * field is {@linkplain #isFreedByFramework freed by the framework}, so that a driver adds no
   * task then.
   */
  public static SparseDeallocation forMesh(SparseConfig settings, ResolvedState state) {
    if (!settings.enabled()) {
      return null;
    }
    for (FieldInfo field : state.fields()) {
      if (isFreedByFramework(field)) {
        return new SparseDeallocation(settings);
      }
    }
    return null;
  }

  /**
   * Whether {@code field} is freed by this deallocation: a sparse field whose ghosts the stage
   * exchange fills ({@code SPARSE}, {@code FILL_GHOST}, not {@code STATIC}).
   */
  public static boolean isFreedByFramework(FieldInfo field) {
    Metadata metadata = field.metadata();
    return field.isSparse() && metadata.isSet(MetadataFlag.FILL_GHOST)
        && !metadata.isSet(MetadataFlag.STATIC);
  }

  /** {@link #check} as a task (Parthenon's {@code Update::SparseDealloc}). */
  public TaskStatus sparseDealloc(MeshData md) {
    check(md);
    return TaskStatus.COMPLETE;
  }

  /**
   * Counts and frees the fields {@linkplain #isFreedByFramework freed by the framework} on the
   * blocks of {@code md}; returns how many were freed.
   */
  public int check(MeshData md) {
    if (!settings.enabled()) {
      return 0;
    }
    FieldStorage storage = md.storage();
    ArenaLayout layout = md.layout();
    int freed = 0;
    for (FieldInfo field : md.state().fields()) {
      if (!isFreedByFramework(field)) {
        continue;
      }
      double threshold = settings.deallocationThreshold(field.metadata());
      int inst = layout.dataInstance(field.id(), md.container());
      int length = layout.blockLength(inst);
      for (int b = 0; b < md.numBlocks(); b++) {
        int block = md.blockIndex(b);
        if (!md.isAllocated(field.id(), b)) {
          continue;
        }
        int count = allBelow(md.data(), layout.offset(inst, block), length, threshold)
            ? storage.deallocationCount(field.id(), block) + 1 : 0;
        storage.setDeallocationCount(field.id(), block, count);
        if (count > settings.deallocationCount()) {
          storage.setDeallocationCount(field.id(), block, 0);
          storage.deallocateSparse(field.id(), block);
          freed++;
        }
      }
    }
    return freed;
  }

  private static boolean allBelow(double[] data, int from, int length, double threshold) {
    for (int i = from; i < from + length; i++) {
      if (Math.abs(data[i]) > threshold) {
        return false;
      }
    }
    return true;
  }
}
