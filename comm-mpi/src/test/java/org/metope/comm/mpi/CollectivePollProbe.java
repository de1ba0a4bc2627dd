package org.metope.comm.mpi;

import java.lang.management.ManagementFactory;
import org.metope.comm.Communicator;
import org.metope.comm.Communicators;
import org.metope.comm.ReduceOp;

/**
 * A rank application for {@link MpiCollectivePollTest}: rank 0 reduces while rank 1 first does
 * some work, so rank 0 polls its collective many times; rank 0 prints the bytes its thread
 * allocated per reduction, rounded up (one byte over all calls shows), as {@code allocated per
 * allreduce: N bytes}.
 */
public final class CollectivePollProbe {
  private static final int WARM_UP = 300;
  private static final int MEASURED = 300;
  private static final int WORK = 200_000;

  private CollectivePollProbe() {}

  /** Entry through the launcher's {@code --class}. */
  public static int run(String[] args) {
    Communicator c = Communicators.world();
    long[] values = new long[2];
    ReduceOp[] ops = {ReduceOp.SUM, ReduceOp.MAX};
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    double sink = 0;
    long before = 0;
    for (int k = 0; k < WARM_UP + MEASURED; k++) {
      if (k == WARM_UP) {
        before = threads.getCurrentThreadAllocatedBytes();
      }
      if (c.rank() != 0) {
        for (int i = 0; i < WORK; i++) {
          sink += Math.sqrt(i + k);
        }
      }
      values[0] = k;
      values[1] = (long) sink & 1;
      c.allreduce(values, ops);
    }
    long bytes = threads.getCurrentThreadAllocatedBytes() - before;
    if (c.rank() == 0) {
      System.out.println("allocated per allreduce: " + (bytes + MEASURED - 1) / MEASURED
          + " bytes");
    }
    return 0;
  }
}
