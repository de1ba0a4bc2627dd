package org.metope.kernels;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.body.StageLaunch;

/**
 * The burgers flux launcher of {@code org.metope.kernels.tornado.ResidentTasks} (fluxes by WENO5
 * and by linear reconstruction) compiled and run by
 * TornadoVM in the resident backend's plan ({@link ResidentTasksTornadoTest#runResident}, with the
 * backend's OpenCL flags: TornadoVM's default fast math assumes finite values, and the limiter's
 * scaled product overflows to infinity), against the host launcher ({@link StageLaunch#runOnHost})
 * on one block of 12^3 cells (4 ghosts) with 4 components: the fluxes to 1e-13 of the largest
 * value, since an OpenCL compiler may contract {@code a * b + c} into a
 * fused multiply-add, and the test prints how many values differ in their bits.
 */
class BurgersTasksTornadoTest {
  private static final int N = 12;
  private static final int CELLS = N * N * N;
  private static final int NCOMP = 4;
  /** U, then the fluxes of directions 1 to 3, then the derived field. */
  private static final int LENGTH = (3 * NCOMP + NCOMP + 1) * CELLS;

  private static double[] arena(long seed) {
    Random random = new Random(seed);
    double[] a = new double[LENGTH];
    for (int i = 0; i < NCOMP * CELLS; i++) {
      a[i] = random.nextDouble() - 0.3;
    }
    return a;
  }

  /** The interior bounds and strides of an entry's tail, one more face along {@code dir}. */
  private static int[] rows(int dir) {
    int[] t = {4, N - 5, 4, N - 5, 4, N - 5, N, N * N};
    if (dir > 0) {
      t[2 * dir - 1]++;
    }
    return t;
  }

  private static StageLaunch fluxes(int weno5) {
    int width = StageLaunch.Kind.BURGERS_FLUX.width;
    int[] t = new int[3 * width];
    int[] strides = {1, N, N * N};
    for (int dir = 1; dir <= 3; dir++) {
      int[] head = {NCOMP * CELLS * dir, 0, NCOMP, CELLS, strides[dir - 1], (dir - 1) * CELLS,
          weno5};
      System.arraycopy(head, 0, t, (dir - 1) * width, head.length);
      System.arraycopy(rows(dir), 0, t, (dir - 1) * width + StageLaunch.B_IS, 8);
    }
    return new StageLaunch(StageLaunch.Kind.BURGERS_FLUX, t, new double[0], 3);
  }

  /** Asserts {@code device} within {@code 1e-13} of the largest host value; prints bit changes. */
  private static void assertNear(String name, double[] host, double[] device) {
    double largest = 0.0;
    for (double v : host) {
      largest = Math.max(largest, Math.abs(v));
    }
    int differing = 0;
    int far = 0;
    String first = "";
    for (int i = 0; i < host.length; i++) {
      if (Double.doubleToRawLongBits(host[i]) != Double.doubleToRawLongBits(device[i])) {
        differing++;
        if (!(Math.abs(host[i] - device[i]) <= 1e-13 * largest)) {
          if (far++ < 8) {
            first += " [" + i + ": host " + host[i] + " device " + device[i] + "]";
          }
        }
      }
    }
    System.out.println(name + ": " + differing + " of " + host.length
        + " values differ in their bits from the host's");
    if (far > 0) {
      throw new AssertionError(name + ": " + far + " values differ by more than 1e-13:" + first);
    }
  }

  @Test
  void givenFluxEntries_whenRunOnTheDevice_thenTheyEqualTheHostToRounding() {
    for (int weno5 = 0; weno5 <= 1; weno5++) {
      StageLaunch launch = fluxes(weno5);
      double[] host = arena(3);
      double[] device = host.clone();
      launch.runOnHost(host, 0, 0);
      ResidentTasksTornadoTest.runResident(device, 0, 0, launch);
      assertNear(weno5 == 1 ? "WENO5 fluxes" : "linear fluxes", host, device);
    }
  }
}
