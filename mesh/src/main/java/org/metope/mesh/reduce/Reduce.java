package org.metope.mesh.reduce;

import org.metope.comm.Communicator;

/**
 * A non-blocking reduction to one rank, for use inside task lists (Parthenon's {@code
 * Reduce<T>}): as {@link AllReduce}, but only {@code root} receives the result; on the other
 * ranks {@link #checkReduce} completes once their contribution is sent.
 */
public final class Reduce extends TaskReduction {
  /**
   * A reduction of {@code width} values per contribution to rank {@code root}, named {@code
   * label} in errors. Collective over {@code world}.
   */
  public Reduce(Communicator world, String label, int width, int root) {
    super(world, label, width, root, false);
  }
}
