package org.metope.comm;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Time per collective against the number of ranks: the reductions a cycle makes (one double's
 * MIN, a double SUM, the cycle's merged long reduction of four values), an allgather of eight ints
 * per rank (tags of eight blocks), a gather of 64 doubles per rank to rank 0 (a history's
 * per-block values), a broadcast of 16 doubles and a barrier. Each figure is the median over
 * {@value #REPEATS} timed batches after a warm-up batch, in microseconds per call, printed by rank
 * 0 as one row per rank count of a table whose columns line up ({@link #header}). Run by {@code ./metope bench collectives [MAX_RANKS]}, which
 * starts it on in-process ranks (threads, {@link #main}) and on MPJ and MPI ranks ({@link
 * #run}); figures go to docs/PERFORMANCE.md with the command and the machine.
 */
public final class CollectiveBenchmark {
  private static final int REPEATS = 5;
  private static final int CALLS = 200;
  private static final String[] NAMES = {"allreduce MIN", "allreduce SUM", "cycle reduction",
    "allgather 8 ints", "gather 64 doubles", "broadcast 16", "barrier"};

  private CollectiveBenchmark() {}

  /** In-process ranks: {@code args[0]} the largest rank count (default 8), powers of two and 3. */
  public static void main(String[] args) {
    int max = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    header();
    for (int ranks = 1; ranks <= max; ranks = ranks == 2 ? 3 : ranks == 3 ? 4 : ranks * 2) {
      InProcessRun.run(ranks, Duration.ofMinutes(10), CollectiveBenchmark::measure);
    }
  }

  /** Entry under MPJ (the launcher's {@code --class}): the world's rank count. */
  public static int run(String[] args) {
    if (args.length > 0 && args[0].equals("--header")) {
      header();
    }
    measure(Communicators.world());
    return 0;
  }

  /** The width of the first column, the backend and rank count as the communicator describes it. */
  private static final int LABEL_WIDTH = 66;

  /** The table's title and column heads; every row's figures stand under their head. */
  private static void header() {
    System.out.println("collectives, microseconds per call (median of " + REPEATS + " batches of "
        + CALLS + " calls)");
    StringBuilder heads = new StringBuilder(String.format(Locale.ROOT, "%-" + LABEL_WIDTH + "s",
        "backend, ranks"));
    for (String name : NAMES) {
      heads.append("  ").append(name);
    }
    heads.append("  peak RSS of rank 0's process");
    System.out.println(heads);
  }

  static void measure(Communicator c) {
    double[][] micros = new double[NAMES.length][REPEATS];
    for (int k = -1; k < REPEATS; k++) {
      for (int op = 0; op < NAMES.length; op++) {
        double us = batchMicros(c, op);
        if (k >= 0) {
          micros[op][k] = us;
        }
      }
    }
    if (c.rank() == 0) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
          "%-" + LABEL_WIDTH + "s", c.describe()));
      for (int op = 0; op < NAMES.length; op++) {
        double[] m = micros[op];
        Arrays.sort(m);
        line.append(String.format(Locale.ROOT, "  %" + NAMES[op].length() + ".1f",
            m[REPEATS / 2]));
      }
      System.out.println(line.append("  ").append(PeakResidentMemory.ofThisProcess()));
    }
  }

  /** Mean microseconds per call of collective {@code op} over one batch, as rank 0 saw it. */
  private static double batchMicros(Communicator c, int op) {
    double[] one = new double[1];
    double[] sixteen = new double[16];
    double[] blocks = new double[64];
    int[] tags = new int[8];
    long[] cycle = new long[4];
    ReduceOp[] cycleOps = {ReduceOp.MIN, ReduceOp.MAX, ReduceOp.SUM, ReduceOp.SUM};
    c.barrier();
    long start = System.nanoTime();
    for (int i = 0; i < CALLS; i++) {
      switch (op) {
        case 0 -> one[0] = c.allreduce(c.rank() + 0.5, ReduceOp.MIN);
        case 1 -> one[0] = c.allreduce(c.rank() + 0.5, ReduceOp.SUM);
        case 2 -> {
          cycle[0] = ReduceOp.MIN.encode(c.rank() + 0.5);
          cycle[1] = 0;
          cycle[2] = c.rank();
          cycle[3] = 1;
          c.allreduce(cycle, cycleOps);
        }
        case 3 -> c.allgather(tags);
        case 4 -> c.gather(blocks, 0);
        case 5 -> c.broadcast(sixteen, 0);
        default -> c.barrier();
      }
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    c.barrier();
    return seconds / CALLS * 1e6;
  }
}
