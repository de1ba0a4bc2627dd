package org.metope.mesh.view;

import org.metope.comm.ReduceOp;
import org.metope.mesh.field.MeshData;

/**
 * Reductions over the cells of a partition's blocks (Parthenon's {@code par_reduce} with {@code
 * Kokkos::Sum}, {@code Min} or {@code Max}): {@code ParReduce.sum(md, box, (b, k, j, i) -> ...)}
 * folds the kernel's value over every cell of {@code box} of every block, {@code b} slowest and
 * {@code i} fastest, one running value from the first cell on. The order is fixed, so the result
 * does not depend on threads; {@link #perBlock} keeps one value per block for a fold across ranks
 * in global block order ({@link org.metope.mesh.reduce.AllReduce#startInBlockOrder}), which makes
 * a sum independent of the number of ranks and partitions too.
 */
public final class ParReduce {
  private ParReduce() {}

  /**
   * The fold with {@code op}, from {@code identity}, over the cells of {@code box} of blocks
   * {@code bs..be}.
   */
  public static double reduce(int bs, int be, IndexBox box, ReduceOp op, double identity,
      CellValue kernel) {
    return fold(op, identity, bs, be, box, kernel);
  }

  /** The sum over every cell of {@code box} of every block of {@code md}, from 0.0. */
  public static double sum(MeshData md, IndexBox box, CellValue kernel) {
    return fold(ReduceOp.SUM, 0.0, 0, md.numBlocks() - 1, box, kernel);
  }

  /** The largest value over every cell of {@code box} ({@code -Infinity} for no cells). */
  public static double max(MeshData md, IndexBox box, CellValue kernel) {
    return fold(ReduceOp.MAX, Double.NEGATIVE_INFINITY, 0, md.numBlocks() - 1, box, kernel);
  }

  /** The smallest value over every cell of {@code box} ({@code Infinity} for no cells). */
  public static double min(MeshData md, IndexBox box, CellValue kernel) {
    return fold(ReduceOp.MIN, Double.POSITIVE_INFINITY, 0, md.numBlocks() - 1, box, kernel);
  }

  /**
   * Writes into {@code out[b]} the fold with {@code op} over the cells of {@code box} of block
   * {@code b}, from {@code identity}, for every block of {@code md}.
   */
  public static void perBlock(MeshData md, IndexBox box, ReduceOp op, double identity,
      CellValue kernel, double[] out) {
    for (int b = 0; b < md.numBlocks(); b++) {
      out[b] = fold(op, identity, b, b, box, kernel);
    }
  }

  private static double fold(ReduceOp op, double identity, int bs, int be, IndexBox box,
      CellValue kernel) {
    final int ks = box.k().s();
    final int ke = box.k().e();
    final int js = box.j().s();
    final int je = box.j().e();
    final int is = box.i().s();
    final int ie = box.i().e();
    double running = identity;
    // < e + 1, not <= e: a <= loop that runs once (one block, a 2D k range) makes C2 compile the
    // fold twice (docs/PERFORMANCE.md, "What the JIT compiles")
    for (int b = bs; b < be + 1; b++) {
      for (int k = ks; k < ke + 1; k++) {
        for (int j = js; j < je + 1; j++) {
          for (int i = is; i < ie + 1; i++) {
            running = op.apply(running, kernel.value(b, k, j, i));
          }
        }
      }
    }
    return running;
  }
}
