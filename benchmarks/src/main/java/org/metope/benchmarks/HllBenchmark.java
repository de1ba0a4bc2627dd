package org.metope.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.metope.examples.burgers.HllRows;

/**
 * The burgers example's HLL fluxes of one block (16^3 cells, 4 ghost layers, 3 velocity
 * components and 8 scalars, all three directions, the faces {@code BurgersFluxes} solves) with the
 * per-face loops they had before, one call per row ({@link HllReference}), against {@link HllRows}
 * one call per k plane (with the copies {@code BurgersFluxes.solve} makes), on the same face
 * states. Thread CPU time, the two alternating: {@code java -cp benchmarks/target/benchmarks.jar
 * org.metope.benchmarks.HllBenchmark [samples]}; docs/PERFORMANCE.md has the figures.
 */
public final class HllBenchmark {
  private static final int CELLS = 16;
  private static final int GHOSTS = 4;
  private static final int SIDE = CELLS + 2 * GHOSTS;
  private static final int CS = SIDE * SIDE * SIDE;
  private static final int NCOMP = 11;

  private final double[] ql = new double[NCOMP * CS];
  private final double[] qr = new double[NCOMP * CS];
  private final double[] flux = new double[NCOMP * CS];
  private final double[] sl = new double[SIDE];
  private final double[] sr = new double[SIDE];
  private final double[][] rows = new double[9][SIDE * SIDE];

  private HllBenchmark() {
    Random random = new Random(5);
    for (int i = 0; i < ql.length; i++) {
      ql[i] = Math.sin(0.01 * i) + 0.1 * random.nextGaussian();
      qr[i] = Math.sin(0.01 * i) + 0.1 * random.nextGaussian();
    }
  }

  private static int last(int axis, int dir) {
    return axis == dir - 1 ? GHOSTS + CELLS : GHOSTS + CELLS - 1;
  }

  private void perRow() {
    for (int dir = 1; dir <= 3; dir++) {
      final int normal = (dir - 1) * CS;
      final int count = last(0, dir) - GHOSTS + 1;
      for (int k = GHOSTS; k <= last(2, dir); k++) {
        for (int j = GHOSTS; j <= last(1, dir); j++) {
          final int face = (k * SIDE + j) * SIDE + GHOSTS;
          HllReference.velocityRow(flux, face, ql, qr, face, normal, CS, count, sl, sr);
          for (int n = 3; n < NCOMP; n++) {
            HllReference.scalarRow(flux, n * CS + face, ql, qr, face, n * CS, normal, count, sl,
                sr);
          }
        }
      }
    }
  }

  private void perPlane() {
    final double[][] r = rows;
    for (int dir = 1; dir <= 3; dir++) {
      final int normal = (dir - 1) * CS;
      final int count = last(0, dir) - GHOSTS + 1;
      final int plane = (last(1, dir) - GHOSTS) * SIDE + count;
      for (int k = GHOSTS; k <= last(2, dir); k++) {
        final int first = (k * SIDE + GHOSTS) * SIDE + GHOSTS;
        HllRows.speeds(ql, qr, normal + first, plane, r[0], r[1], r[2], r[3], r[4], r[5]);
        for (int n = 0; n < NCOMP; n++) {
          final int at = n * CS + first;
          System.arraycopy(ql, at, r[6], 0, plane);
          System.arraycopy(qr, at, r[7], 0, plane);
          if (n < 3) {
            HllRows.velocity(r[6], r[7], r[0], r[1], r[2], r[3], r[5], r[8], plane);
          } else {
            HllRows.scalar(r[6], r[7], r[0], r[1], r[2], r[3], r[4], r[8], plane);
          }
          System.arraycopy(r[8], 0, flux, at, plane);
        }
      }
    }
  }

  /** Medians of thread CPU time per block, both ways alternating, after a warm-up. */
  public static void main(String[] args) {
    final int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    HllBenchmark run = new HllBenchmark();
    for (int n = 0; n < 300; n++) {
      run.perRow();
      run.perPlane();
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] reference = new long[samples];
    long[] vectorised = new long[samples];
    for (int s = 0; s < samples; s++) {
      long t0 = threads.getCurrentThreadCpuTime();
      for (int b = 0; b < 10; b++) {
        run.perRow();
      }
      long t1 = threads.getCurrentThreadCpuTime();
      for (int b = 0; b < 10; b++) {
        run.perPlane();
      }
      long t2 = threads.getCurrentThreadCpuTime();
      reference[s] = (t1 - t0) / 10;
      vectorised[s] = (t2 - t1) / 10;
    }
    Arrays.sort(reference);
    Arrays.sort(vectorised);
    System.out.printf(Locale.ROOT, "per row median %.1f us, per plane median %.1f us, ratio %.2f%n",
        reference[samples / 2] / 1e3, vectorised[samples / 2] / 1e3,
        (double) reference[samples / 2] / vectorised[samples / 2]);
  }
}
