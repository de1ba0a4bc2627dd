package org.metope.tasking;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoublePredicate;
import java.util.function.DoubleSupplier;
import java.util.function.DoubleUnaryOperator;

/**
 * A ready-made global convergence check for an iterative group that runs in every list of a
 * region (Parthenon's {@code local_sync} partial results, a {@code once_per_region} reduction and
 * a completion task): each iteration, every list computes its partial value, the first list
 * combines the partials in list order and then over ranks, and every list's completion task
 * tests the one global value. All lists, on all ranks, therefore finish in the same iteration,
 * whatever the number of lists.
 *
 * <pre>{@code
 * RegionalConvergence check = new RegionalConvergence(parts.size(), Math::max,
 *     v -> comm.allreduce(v, ReduceOp.MAX), residual -> residual < 1e-10);
 * for (int p = 0; p < parts.size(); p++) {
 *   IterativeTasks solve = region.get(p).addIteration("solve");
 *   TaskId sweep = ...;
 *   check.addCompletion(solve, sweep, p, () -> localResidual(p));
 * }
 * }</pre>
 *
 * <p>Combining in list order and reducing over ranks in the communicator's fixed order gives the
 * same value for the same partials; a maximum gives the same value for any partitioning, a sum
 * need not (floating-point addition is not associative).
 */
public final class RegionalConvergence {
  private final double[] partials;
  private final DoubleBinaryOperator combine;
  private final DoubleUnaryOperator acrossRanks;
  private final DoublePredicate converged;
  private volatile double global = Double.NaN;

  /**
   * @param lists the number of lists of the region, each of which must call {@link
   *     #addCompletion} once
   * @param combine folds two partial values, applied in list order
   * @param acrossRanks reduces this rank's combined value over the ranks (identity on one rank);
   *     a collective, called by the first list only, once per iteration on every rank
   * @param converged whether the global value ends the iteration
   */
  public RegionalConvergence(int lists, DoubleBinaryOperator combine,
      DoubleUnaryOperator acrossRanks, DoublePredicate converged) {
    if (lists < 1) {
      throw new IllegalArgumentException("a region has at least one list: lists=" + lists);
    }
    this.partials = new double[lists];
    this.combine = combine;
    this.acrossRanks = acrossRanks;
    this.converged = converged;
  }

  /**
   * Adds to {@code group} of list {@code list} the regional task computing {@code local}, the
   * regional reduction and the completion task, after {@code dependency}.
   *
   * @return the completion task
   */
  public TaskId addCompletion(IterativeTasks group, TaskId dependency, int list,
      DoubleSupplier local) {
    if (list < 0 || list >= partials.length) {
      throw new IllegalArgumentException("list=" + list + " outside the region's "
          + partials.length + " lists");
    }
    TaskId partial = group.addRegionalTask(dependency, "partial_residual", () -> {
      partials[list] = local.getAsDouble();
      return TaskStatus.COMPLETE;
    });
    TaskId reduced = group.addRegionalTask(partial, "global_residual", () -> {
      if (list == 0) {
        reduce();
      }
      return TaskStatus.COMPLETE;
    });
    return group.setCompletionTask(reduced, "converged",
        () -> converged.test(global) ? TaskStatus.COMPLETE : TaskStatus.ITERATE);
  }

  private void reduce() {
    double value = partials[0];
    for (int l = 1; l < partials.length; l++) {
      value = combine.applyAsDouble(value, partials[l]);
    }
    global = acrossRanks.applyAsDouble(value);
  }

  /** The global value of the last iteration (NaN before the first). */
  public double value() {
    return global;
  }
}
