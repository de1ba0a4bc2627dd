package org.metope.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.metope.examples.burgers.Reconstruction;

/**
 * The burgers example's WENO5 face states of one block (16^3 cells, 4 ghost layers, one
 * component, all three directions, the cells {@code BurgersFluxes} reconstructs) with the plain
 * per-cell loop it had before, one call per row ({@link ReconstructionReference}), against the vectorised
 * kernel one call per k plane ({@link Reconstruction#weno5Row}), on the same data: a smooth field
 * with steps. The score is the time of one block's three directions.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar Weno5Benchmark} (JMH, wall time), or
 * for a shared machine {@code java -cp benchmarks/target/benchmarks.jar
 * org.metope.benchmarks.Weno5Benchmark [samples]} ({@link #main}: thread CPU time, the two kernels
 * alternating). docs/PERFORMANCE.md has the figures and the machine.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class Weno5Benchmark {
  private static final int CELLS = 16;
  private static final int GHOSTS = 4;
  private static final int SIDE = CELLS + 2 * GHOSTS;
  private static final int[] STRIDES = {1, SIDE, SIDE * SIDE};

  private final double[] a = new double[SIDE * SIDE * SIDE];
  private final double[] ql = new double[a.length];
  private final double[] qr = new double[a.length];

  /** Fills the block and runs both kernels, so that each is compiled before it is measured. */
  @Setup
  public void setUp() {
    Random random = new Random(11);
    for (int i = 0; i < a.length; i++) {
      a[i] = Math.sin(0.01 * i) + (random.nextInt(10) == 0 ? random.nextGaussian() : 0.0);
    }
    for (int n = 0; n < 200; n++) {
      perRow();
      perPlane();
    }
  }

  /** First and last reconstructed cell along each axis for direction {@code dir}. */
  private static int first(int axis, int dir) {
    return axis == dir - 1 ? GHOSTS - 1 : GHOSTS;
  }

  private static int last(int axis, int dir) {
    return axis == dir - 1 ? GHOSTS + CELLS : GHOSTS + CELLS - 1;
  }

  private double[] perRow() {
    for (int dir = 1; dir <= 3; dir++) {
      final int s = STRIDES[dir - 1];
      final int count = last(0, dir) - first(0, dir) + 1;
      for (int k = first(2, dir); k <= last(2, dir); k++) {
        for (int j = first(1, dir); j <= last(1, dir); j++) {
          final int cell = (k * SIDE + j) * SIDE + first(0, dir);
          ReconstructionReference.weno5Row(a, cell, s, count, ql, cell + s, qr, cell);
        }
      }
    }
    return ql;
  }

  private double[] perPlane() {
    for (int dir = 1; dir <= 3; dir++) {
      final int s = STRIDES[dir - 1];
      final int j0 = first(1, dir);
      final int plane = (last(1, dir) - j0) * SIDE + last(0, dir) - first(0, dir) + 1;
      for (int k = first(2, dir); k <= last(2, dir); k++) {
        final int cell = (k * SIDE + j0) * SIDE + first(0, dir);
        Reconstruction.weno5Row(a, cell, s, plane, ql, cell + s, qr, cell);
      }
    }
    return ql;
  }

  /**
   * Thread CPU time of both kernels, alternating, 10 blocks per sample after the set-up's warm-up;
   * prints the median and 10th percentile per block and the ratio of the medians.
   */
  public static void main(String[] args) {
    final int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    final int blocksPerSample = 10;
    Weno5Benchmark run = new Weno5Benchmark();
    run.setUp();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] reference = new long[samples];
    long[] vectorised = new long[samples];
    for (int s = 0; s < samples; s++) {
      long t0 = threads.getCurrentThreadCpuTime();
      for (int b = 0; b < blocksPerSample; b++) {
        run.perRow();
      }
      long t1 = threads.getCurrentThreadCpuTime();
      for (int b = 0; b < blocksPerSample; b++) {
        run.perPlane();
      }
      long t2 = threads.getCurrentThreadCpuTime();
      reference[s] = (t1 - t0) / blocksPerSample;
      vectorised[s] = (t2 - t1) / blocksPerSample;
    }
    Arrays.sort(reference);
    Arrays.sort(vectorised);
    System.out.printf(Locale.ROOT, "reference median %.1f us (p10 %.1f), vectorised median %.1f us"
        + " (p10 %.1f), reference / vectorised %.2f%n", reference[samples / 2] / 1e3,
        reference[samples / 10] / 1e3, vectorised[samples / 2] / 1e3,
        vectorised[samples / 10] / 1e3, (double) reference[samples / 2] / vectorised[samples / 2]);
  }

  /** The plain per-cell loop, one call per row. */
  @Benchmark
  public void reference(Blackhole bh) {
    bh.consume(perRow());
  }

  /** The vectorised stages, one call per k plane. */
  @Benchmark
  public void vectorised(Blackhole bh) {
    bh.consume(perPlane());
  }
}
