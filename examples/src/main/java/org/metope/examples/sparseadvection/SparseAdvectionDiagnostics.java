package org.metope.examples.sparseadvection;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.metope.comm.ReduceOp;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;

/**
 * What the sparse_advection example prints after every step (Parthenon's {@code
 * PostStepDiagnosticsInLoop}): on how many blocks of the whole mesh each field of the pool is
 * allocated, and the field memory per block, over every rank:
 *
 * <pre>
 * \tNumber of allocations: 0: 5, 1: 5, 2: 5, 3: 5
 * \tMem used/block in bytes [min, max, avg] = [..., ..., ...]
 * </pre>
 *
 * <p>The allocation counts are Parthenon's quantity. The memory is Metope's: the bytes of every
 * field instance (stage copies, fluxes, coarse buffer) a block holds in the rank's arena, which
 * is not how Parthenon's {@code ReportMemUsage} counts (it logs only data and coarse buffers as
 * they are allocated), so those numbers are not comparable between the two codes.
 */
final class SparseAdvectionDiagnostics {
  private SparseAdvectionDiagnostics() {}

  /** Reduces over the ranks of {@code mesh}; rank 0 prints to {@code out}. */
  static void print(Mesh mesh, PrintStream out) {
    FieldStorage storage = mesh.fields();
    ArenaLayout layout = storage.layout();
    List<FieldInfo> pool = storage.state().sparseFields(SparseAdvectionPackage.POOL);
    long[] allocations = new long[pool.size()];
    long[] fieldBytes = new long[layout.numFields()];
    for (int f = 0; f < fieldBytes.length; f++) {
      for (int inst : layout.instancesOf(f)) {
        fieldBytes[f] += (long) layout.blockLength(inst) * Double.BYTES;
      }
    }
    long memMin = Long.MAX_VALUE;
    long memMax = 0;
    long memTotal = 0;
    for (int block = 0; block < storage.numBlocks(); block++) {
      for (int n = 0; n < pool.size(); n++) {
        if (storage.isAllocated(pool.get(n).id(), block)) {
          allocations[n]++;
        }
      }
      long bytes = 0;
      for (int f = 0; f < fieldBytes.length; f++) {
        if (storage.isAllocated(f, block)) {
          bytes += fieldBytes[f];
        }
      }
      memMin = Math.min(memMin, bytes);
      memMax = Math.max(memMax, bytes);
      memTotal += bytes;
    }
    // One reduction: the allocation counts and the memory total summed, its extremes taken.
    int pools = allocations.length;
    long[] values = Arrays.copyOf(allocations, pools + 3);
    ReduceOp[] ops = new ReduceOp[pools + 3];
    Arrays.fill(ops, ReduceOp.SUM);
    values[pools] = memMin;
    ops[pools] = ReduceOp.MIN;
    values[pools + 1] = memMax;
    ops[pools + 1] = ReduceOp.MAX;
    values[pools + 2] = memTotal;
    mesh.communicator().allreduce(values, ops);
    System.arraycopy(values, 0, allocations, 0, pools);
    memMin = values[pools];
    memMax = values[pools + 1];
    memTotal = values[pools + 2];
    long blocks = mesh.totalBlocks();
    if (mesh.myRank() != 0) {
      return;
    }
    StringBuilder line = new StringBuilder("\tNumber of allocations: ");
    for (int n = 0; n < allocations.length; n++) {
      line.append(pool.get(n).sparseId()).append(": ").append(allocations[n])
          .append(n == allocations.length - 1 ? "" : ", ");
    }
    out.print(line.append('\n'));
    out.print(String.format(Locale.ROOT,
        "\tMem used/block in bytes [min, max, avg] = [%d, %d, %.14e]\n", memMin, memMax,
        (double) memTotal / blocks));
  }
}
