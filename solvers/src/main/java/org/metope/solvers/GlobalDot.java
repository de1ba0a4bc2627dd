package org.metope.solvers;

import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.reduce.AllReduce;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParReduce;
import org.metope.tasking.Task;
import org.metope.tasking.TaskAdder;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskStatus;

/**
 * A dot product of two fields over the interior cells of every block of the mesh, as tasks
 * (Parthenon's {@code DotProduct} with its {@code AllReduce}): each list writes its blocks' sums
 * in a regional task, the first list starts the reduction in global block order and polls it in
 * another regional task. The value has the same bits on any number of ranks and partitions.
 * Packages use it for their own global sums over fields (an error norm, say).
 */
public final class GlobalDot {
  private final AllReduce reduction;
  private final double[] perBlock;
  private final int[] gids;
  private final int totalBlocks;

  /** A dot product over {@code mesh}'s blocks; collective (it makes a reduction). */
  public GlobalDot(Communicator comm, Mesh mesh, String label) {
    this.reduction = new AllReduce(comm, label, 1);
    this.perBlock = new double[mesh.blocks().size()];
    this.gids = new int[perBlock.length];
    for (int b = 0; b < gids.length; b++) {
      gids[b] = mesh.blocks().get(b).gid();
    }
    this.totalBlocks = mesh.totalBlocks();
  }

  /** The last completed value. */
  public double value() {
    return reduction.value();
  }

  /**
   * Adds the tasks computing {@code (a, b)} over partition {@code md}, list {@code list} of the
   * region, after {@code dependency}; returns the task after which {@link #value()} holds it.
   */
  public TaskId add(TaskAdder tl, TaskId dependency, int list, MeshData md, int a, int b) {
    double[] part = new double[md.numBlocks()];
    IndexBox interior = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    TaskId summed = tl.addRegionalTask(dependency, "dot_" + reduction.label(), () -> {
      double[] data = md.data(); // read per call: a sparse allocation may replace the arena
      ParReduce.perBlock(md, interior, ReduceOp.SUM, 0.0,
          (n, k, j, i) -> data[md.index(a, n, 0, k, j, i)] * data[md.index(b, n, 0, k, j, i)],
          part);
      for (int n = 0; n < part.length; n++) {
        perBlock[md.blockIndex(n)] = part[n];
      }
      return TaskStatus.COMPLETE;
    });
    Task idle = () -> TaskStatus.COMPLETE;
    TaskId started = tl.addTask(summed, "start_" + reduction.label(), list == 0
        ? () -> reduction.startInBlockOrder(ReduceOp.SUM, gids, perBlock, totalBlocks) : idle);
    return tl.addRegionalTask(started, "check_" + reduction.label(),
        list == 0 ? reduction::checkReduce : idle);
  }
}
