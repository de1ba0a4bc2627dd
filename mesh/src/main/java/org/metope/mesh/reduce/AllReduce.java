package org.metope.mesh.reduce;

import org.metope.comm.Communicator;

/**
 * A non-blocking reduction whose result every rank receives, for use inside task lists
 * (Parthenon's {@code AllReduce<T>}): one task starts it ({@link #startReduce} or {@link
 * #startInBlockOrder}), another polls it ({@link #checkReduce}) and returns {@code INCOMPLETE}
 * until the result is in, so other tasks run meanwhile. Results fold in rank order, or in global
 * block order, and are the same bits on every rank.
 *
 * <pre>{@code
 * AllReduce norm = new AllReduce(comm, "update_norm", 1);      // collective, at set-up
 * TaskId start = tl.addTask(sum, "start_norm", () -> norm.startReduce(ReduceOp.SUM));
 * TaskId done = tl.addTask(start, "check_norm", norm::checkReduce);
 * }</pre>
 *
 * <p>Construction duplicates the communicator (a collective): every rank makes its reductions in
 * the same order, and every rank starts them in the same order; a mismatch is reported in one
 * line by the rank that detects it.
 */
public final class AllReduce extends TaskReduction {
  /**
   * A reduction of {@code width} values per contribution, named {@code label} in errors.
   * Collective over {@code world}.
   */
  public AllReduce(Communicator world, String label, int width) {
    super(world, label, width, 0, true);
  }
}
