package org.metope.kernels;

import java.util.Arrays;
import java.util.Locale;

/**
 * Load + unload of a boundary exchange, "in one" against one launch per boundary, and against
 * System.arraycopy of the same number of doubles (the practical limit), on 1 thread and on all.
 * Defaults: 64 blocks (4^3, periodic) of 16^3 cells with 2 ghost layers, 1 field, all 26
 * neighbours.
 *
 * <pre>
 *   mvn -q -B -pl kernels-tornado test-compile
 *   java -cp kernels-tornado/target/classes:kernels-tornado/target/test-classes \
 *       org.metope.kernels.KernelBenchmark [seconds-per-measurement] [fields]
 * </pre>
 *
 * Bytes moved counts each double copied once (8 bytes), for load and unload alike, and the same
 * for arraycopy. Each figure is the median over five measurements after a warm-up.
 */
public final class KernelBenchmark {
  private static final int ROUNDS = 5;

  /** One measured variant: runs one exchange (or the equivalent copies) per call. */
  private interface Variant {
    void run();
  }

  private KernelBenchmark() {}

  /** Runs the benchmark and prints one line per variant. */
  public static void main(String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
    int fields = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    UniformExchange mesh = new UniformExchange(4, 16, 2, fields);
    mesh.fillInteriors();
    long doubles = mesh.send.totalCells + mesh.receive.totalCells;
    int all = Runtime.getRuntime().availableProcessors();
    System.out.printf(Locale.ROOT, "blocks=64 cells=16^3 ghosts=2 fields=%d boundaries=%d"
        + " doubles-per-exchange=%d processors=%d%n", fields, mesh.send.size, doubles, all);
    int[][] singles = new int[mesh.send.size][];
    for (int b = 0; b < singles.length; b++) {
      singles[b] = new int[] {b};
    }
    double[] source = new double[(int) mesh.send.totalCells];
    Arrays.fill(source, 1.0);
    double[] middle = new double[source.length];
    double[] target = new double[source.length];
    for (int threads : all == 1 ? new int[] {1} : new int[] {1, all}) {
      try (JvmKernelBackend backend = new JvmKernelBackend(threads)) {
        Variant inOne = () -> {
          backend.load(mesh.send, mesh.data, mesh.buffers);
          backend.unload(mesh.receive, mesh.data, mesh.buffers);
        };
        Variant perBoundary = () -> {
          for (int[] single : singles) {
            backend.load(mesh.send, single, 1, mesh.data, mesh.buffers);
          }
          for (int[] single : singles) {
            backend.unload(mesh.receive, single, 1, mesh.data, mesh.buffers);
          }
        };
        Variant arraycopy = arraycopy(threads, source, middle, target);
        double copyRate = report("arraycopy", threads, doubles, measure(arraycopy, seconds), 0);
        double oneRate = report("in-one", threads, doubles, measure(inOne, seconds), copyRate);
        double perRate = report("per-boundary", threads, doubles, measure(perBoundary, seconds),
            copyRate);
        System.out.printf(Locale.ROOT, "threads=%d in-one/per-boundary speed-up=%.1f%n", threads,
            oneRate / perRate);
      }
    }
    mesh.fillInteriors();
    try (JvmKernelBackend backend = new JvmKernelBackend(all)) {
      backend.load(mesh.send, mesh.data, mesh.buffers);
      backend.unload(mesh.receive, mesh.data, mesh.buffers);
    }
    System.out.println("check: wrong cells after one exchange = " + mesh.wrongCells());
  }

  /** Copies the same doubles as load + unload: source to middle, then middle to target. */
  private static Variant arraycopy(int threads, double[] source, double[] middle,
      double[] target) {
    if (threads == 1) {
      return () -> {
        System.arraycopy(source, 0, middle, 0, source.length);
        System.arraycopy(middle, 0, target, 0, middle.length);
      };
    }
    WorkerPool pool = new WorkerPool(threads, "bench-copy");
    WorkerPool.Part first = (p, parts) -> copyShare(source, middle, p, parts);
    WorkerPool.Part second = (p, parts) -> copyShare(middle, target, p, parts);
    return () -> {
      pool.run(first);
      pool.run(second);
    };
  }

  private static void copyShare(double[] from, double[] to, int p, int parts) {
    int lo = (int) ((long) from.length * p / parts);
    int hi = (int) ((long) from.length * (p + 1) / parts);
    System.arraycopy(from, lo, to, lo, hi - lo);
  }

  /** Median seconds per call over {@link #ROUNDS} measurements of about {@code seconds} each. */
  private static double measure(Variant variant, double seconds) {
    long calls = 1;
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    while (System.nanoTime() < deadline) {
      variant.run();
      calls++;
    }
    double[] perCall = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long start = System.nanoTime();
      for (long c = 0; c < calls; c++) {
        variant.run();
      }
      perCall[r] = (System.nanoTime() - start) / 1e9 / calls;
    }
    Arrays.sort(perCall);
    return perCall[ROUNDS / 2];
  }

  private static double report(String name, int threads, long doubles, double secondsPerCall,
      double copyRate) {
    double rate = 8.0 * doubles / secondsPerCall / 1e9;
    String ratio = copyRate > 0
        ? String.format(Locale.ROOT, " ratio-to-arraycopy=%.2f", rate / copyRate)
        : "";
    System.out.printf(Locale.ROOT, "%-13s threads=%d time=%9.1f us  %6.2f GB/s%s%n", name,
        threads, secondsPerCall * 1e6, rate, ratio);
    return rate;
  }
}
