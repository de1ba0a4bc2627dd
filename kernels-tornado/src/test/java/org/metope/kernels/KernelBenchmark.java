package org.metope.kernels;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.metope.kernels.table.BoundaryTable;

/**
 * Load + unload of a boundary exchange, "in one" against one launch per boundary, and against
 * System.arraycopy of the same number of doubles in one piece (the practical limit), on 1 thread
 * and on all; also one System.arraycopy per row of the same boxes, on 1 thread (the same figure is
 * repeated on the all-threads lines), to show what rows of two cells cost any copy.
 * Defaults: 64 blocks (4^3, periodic) of 16^3 cells with 2 ghost layers, 1 field, all 26
 * neighbours.
 *
 * <pre>
 *   mvn -q -B -pl kernels-tornado test-compile
 *   java -cp kernels-tornado/target/classes:kernels-tornado/target/test-classes \
 *       org.metope.kernels.KernelBenchmark [seconds-per-measurement] [fields]
 * </pre>
 *
 * Like JMH, every variant runs in a fresh JVM so that one variant's JIT profile cannot slow
 * another. Bytes moved counts each double copied once (8 bytes), for load and unload alike, and
 * the same for arraycopy. Each figure is the median of five measurements after a warm-up of the
 * same length.
 */
public final class KernelBenchmark {
  private static final int ROUNDS = 5;
  private static final String[] VARIANTS = {"arraycopy", "in-one", "per-boundary",
      "arraycopy-rows"};

  /** One measured variant: runs one exchange (or the equivalent copies) per call. */
  private interface Variant {
    void run();
  }

  private KernelBenchmark() {}

  /** Runs every variant in a child JVM and prints the table, or one variant with --variant. */
  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length > 0 && args[0].equals("--variant")) {
      runVariant(args[1], Integer.parseInt(args[2]), Double.parseDouble(args[3]),
          Integer.parseInt(args[4]));
      return;
    }
    String seconds = args.length > 0 ? args[0] : "1.0";
    int fields = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    UniformExchange mesh = new UniformExchange(4, 16, 2, fields);
    long doubles = mesh.send.totalCells + mesh.receive.totalCells;
    int all = Runtime.getRuntime().availableProcessors();
    System.out.printf(Locale.ROOT, "blocks=64 cells=16^3 ghosts=2 fields=%d boundaries=%d"
        + " doubles-per-exchange=%d processors=%d%n", fields, mesh.send.size, doubles, all);
    int[] threadCounts = all == 1 ? new int[] {1} : new int[] {1, all};
    double[][] rates = new double[VARIANTS.length][threadCounts.length];
    long[][] peakKb = new long[VARIANTS.length][threadCounts.length];
    for (int v = 0; v < VARIANTS.length; v++) {
      for (int t = 0; t < threadCounts.length; t++) {
        boolean serialOnly = VARIANTS[v].equals("arraycopy-rows");
        double[] result = serialOnly && t > 0
            ? new double[] {8.0 * doubles / rates[v][0] / 1e9, peakKb[v][0]}
            : child(VARIANTS[v], threadCounts[t], seconds, fields);
        rates[v][t] = 8.0 * doubles / result[0] / 1e9;
        peakKb[v][t] = (long) result[1];
      }
    }
    double bestCopy = Arrays.stream(rates[0]).max().orElse(1);
    for (int t = 0; t < threadCounts.length; t++) {
      for (int v = 0; v < VARIANTS.length; v++) {
        System.out.printf(Locale.ROOT, "%-13s threads=%d time=%8.1f us %6.2f GB/s"
            + "  /arraycopy(same threads)=%.2f  /arraycopy(best)=%.2f  peak RSS %d MB%n",
            VARIANTS[v], threadCounts[t], 8.0 * doubles / rates[v][t] / 1e3, rates[v][t],
            rates[v][t] / rates[0][t], rates[v][t] / bestCopy, (peakKb[v][t] + 512) / 1024);
      }
      System.out.printf(Locale.ROOT, "threads=%d in-one/per-boundary speed-up=%.1f%n",
          threadCounts[t], rates[1][t] / rates[2][t]);
    }
    mesh.fillInteriors();
    try (JvmKernelBackend backend = new JvmKernelBackend(all)) {
      backend.load(mesh.send, mesh.data, mesh.buffers);
      backend.unload(mesh.receive, mesh.data, mesh.buffers);
    }
    System.out.println("check: wrong cells after one exchange = " + mesh.wrongCells());
  }

  /**
   * Runs one variant in a fresh JVM and returns its median seconds per exchange and the JVM's
   * peak resident memory in kB (0 where it cannot tell).
   */
  private static double[] child(String variant, int threads, String seconds, int fields)
      throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-cp",
        System.getProperty("java.class.path"), KernelBenchmark.class.getName(), "--variant",
        variant, Integer.toString(threads), seconds, Integer.toString(fields)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    double[] result = null;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          String[] parts = line.substring(7).split(" ");
          result = new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1])};
        } else {
          System.out.println(line);
        }
      }
    }
    if (process.waitFor() != 0 || result == null) {
      throw new IllegalStateException("benchmark child failed: variant=" + variant);
    }
    return result;
  }

  private static void runVariant(String name, int threads, double seconds, int fields) {
    UniformExchange mesh = new UniformExchange(4, 16, 2, fields);
    mesh.fillInteriors();
    double[] source = new double[(int) mesh.send.totalCells];
    Arrays.fill(source, 1.0);
    double[] middle = new double[source.length];
    double[] target = new double[source.length];
    int[][] singles = new int[mesh.send.size][];
    for (int b = 0; b < singles.length; b++) {
      singles[b] = new int[] {b};
    }
    try (JvmKernelBackend backend = new JvmKernelBackend(threads)) {
      Variant variant;
      if (name.equals("arraycopy")) {
        variant = arraycopy(threads, source, middle, target);
      } else if (name.equals("arraycopy-rows")) {
        variant = () -> {
          copyRowByRow(mesh.send, mesh.data, mesh.buffers, true);
          copyRowByRow(mesh.receive, mesh.data, mesh.buffers, false);
        };
      } else if (name.equals("in-one")) {
        variant = () -> {
          backend.load(mesh.send, mesh.data, mesh.buffers);
          backend.unload(mesh.receive, mesh.data, mesh.buffers);
        };
      } else {
        variant = () -> {
          for (int[] single : singles) {
            backend.load(mesh.send, single, 1, mesh.data, mesh.buffers);
          }
          for (int[] single : singles) {
            backend.unload(mesh.receive, single, 1, mesh.data, mesh.buffers);
          }
        };
      }
      System.out.println("RESULT " + measure(variant, seconds) + " " + peakKilobytes());
    }
  }

  /** This JVM's peak resident memory ({@code VmHWM}) in kB, or 0 where /proc cannot tell. */
  private static long peakKilobytes() {
    try (Stream<String> status = Files.lines(Path.of("/proc/self/status"))) {
      return status.filter(line -> line.startsWith("VmHWM:"))
          .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElse(0);
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
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
    WorkerPool pool = new WorkerPool(threads, threads, "bench-copy");
    WorkerPool.Part first = (p, parts) -> copyShare(source, middle, p, parts);
    WorkerPool.Part second = (p, parts) -> copyShare(middle, target, p, parts);
    return () -> {
      pool.run(first);
      pool.run(second);
    };
  }

  /** One System.arraycopy per row of every box: the best a row-wise copy can do on one thread. */
  private static void copyRowByRow(BoundaryTable t, double[] data, double[] buffers,
      boolean toBuffers) {
    for (int b = 0; b < t.size; b++) {
      int ni = t.get(BoundaryTable.VAR_NI, b);
      int nj = t.get(BoundaryTable.VAR_NJ, b);
      int count = t.get(BoundaryTable.IE, b) - t.get(BoundaryTable.IS, b) + 1;
      int pos = t.get(BoundaryTable.BUFFER_OFFSET, b);
      for (int k = t.get(BoundaryTable.KS, b); k <= t.get(BoundaryTable.KE, b); k++) {
        for (int j = t.get(BoundaryTable.JS, b); j <= t.get(BoundaryTable.JE, b); j++) {
          int at = t.get(BoundaryTable.VAR_OFFSET, b) + (k * nj + j) * ni
              + t.get(BoundaryTable.IS, b);
          if (toBuffers) {
            System.arraycopy(data, at, buffers, pos, count);
          } else {
            System.arraycopy(buffers, pos, data, at, count);
          }
          pos += count;
        }
      }
    }
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
}
