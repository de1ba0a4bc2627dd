package org.metope.mesh.update;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.SparseConfig;
import org.metope.tasking.TaskStatus;

/**
 * Frees sparse fields that have stayed negligible (Parthenon's {@code Update::SparseDealloc}): at
 * the end of a cycle, a block's sparse field whose every value, ghosts included, has magnitude at
 * most the deallocation threshold counts one more cycle; any larger value resets the count; once
 * the count exceeds {@code dealloc_count} the field is freed on that block. Counters live in the
 * {@link FieldStorage}, one per field and block, so that a remesh moves them with the blocks.
 *
 * <p>Parthenon's examples add it as the last task of the last stage, after the boundary exchange
 * and before the refinement tags ({@link #sparseDealloc}); with sparse disabled it does nothing.
 */
public final class SparseDeallocation {
  private final SparseConfig settings;

  /** Deallocation with the thresholds and count of {@code settings}. */
  public SparseDeallocation(SparseConfig settings) {
    this.settings = settings;
  }

  /** {@link #check} as a task (Parthenon's {@code Update::SparseDealloc}). */
  public TaskStatus sparseDealloc(MeshData md) {
    check(md);
    return TaskStatus.COMPLETE;
  }

  /** Counts and frees the sparse fields of the blocks of {@code md}; returns how many were freed. */
  public int check(MeshData md) {
    if (!settings.enabled()) {
      return 0;
    }
    FieldStorage storage = md.storage();
    ArenaLayout layout = md.layout();
    int freed = 0;
    for (FieldInfo field : md.state().fields()) {
      if (!field.isSparse()) {
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
