package org.metope.kernels.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Toth and Roe's internal prolongation keeps the divergence: one coarse cell split into fine cells
 * whose faces on the coarse cell's boundary hold arbitrary values; after the internal faces are
 * set, every fine cell's divergence equals the coarse cell's (the flux through its boundary over
 * its volume), in 3D and 2D (cubic and square cells).
 */
class FaceRefinementOpsTest {
  /** Three elements of (2 + 1)^3 faces each: one coarse cell's fine faces, no ghosts. */
  private static final int N = 3;
  private static final int STRIDE = N * N * N;

  private static int at(int element, int k, int j, int i, int nk) {
    return element * N * N * nk + (k * N + j) * N + i;
  }

  private static double[] randomFaces(long seed, int nk) {
    double[] a = new double[3 * N * N * nk];
    Random random = new Random(seed);
    for (int n = 0; n < a.length; n++) {
      a[n] = random.nextDouble() * 2 - 1;
    }
    return a;
  }

  /** Divergences of the fine cells, x3 term only in 3D. */
  private static double[] fineDivergences(double[] a, int nk, double[] dxf) {
    int cells = nk == 1 ? 1 : 2;
    double[] div = new double[4 * cells];
    for (int k = 0; k < cells; k++) {
      for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 2; i++) {
          double d = (a[at(0, k, j, i + 1, nk)] - a[at(0, k, j, i, nk)]) / dxf[0]
              + (a[at(1, k, j + 1, i, nk)] - a[at(1, k, j, i, nk)]) / dxf[1];
          if (nk > 1) {
            d += (a[at(2, k + 1, j, i, nk)] - a[at(2, k, j, i, nk)]) / dxf[2];
          }
          div[(k * 2 + j) * 2 + i] = d;
        }
      }
    }
    return div;
  }

  /** The coarse cell's divergence from the fine faces on its boundary. */
  private static double coarseDivergence(double[] a, int nk, double[] dxf) {
    double[] flux = new double[3];
    int cells = nk == 1 ? 1 : 2;
    for (int x = 0; x < 2; x++) {
      for (int y = 0; y < cells; y++) {
        flux[0] += (a[at(0, y, x, 2, nk)] - a[at(0, y, x, 0, nk)]) * dxf[1] * dxf[2];
        flux[1] += (a[at(1, y, 2, x, nk)] - a[at(1, y, 0, x, nk)]) * dxf[0] * dxf[2];
        if (nk > 1) {
          flux[2] += (a[at(2, 2, y, x, nk)] - a[at(2, 0, y, x, nk)]) * dxf[0] * dxf[1];
        }
      }
    }
    return (flux[0] + flux[1] + flux[2]) / (cells * 4 * dxf[0] * dxf[1] * dxf[2]);
  }

  private static void checkEveryFineCellHasTheCoarseDivergence(int dims, boolean internal) {
    int nk = dims == 3 ? N : 1;
    // Square cells: Parthenon's operator keeps the divergence there (see FaceRefinementOps).
    double[] dxc = {0.25, 0.25, dims == 3 ? 0.25 : 1.0};
    double[] dxf = {dxc[0] / 2, dxc[1] / 2, dims == 3 ? dxc[2] / 2 : dxc[2]};
    for (long seed = 1; seed <= 20; seed++) {
      double[] a = randomFaces(seed, nk);
      for (int element = 0; element < dims; element++) {
        if (internal) {
          FaceRefinementOps.tothAndRoe(a, 0, N * N * nk, N, N, dims, element, 0, 0, 0, dxc[0],
              dxc[1], dxc[2]);
        }
      }
      double coarse = coarseDivergence(a, nk, dxf);
      for (double fine : fineDivergences(a, nk, dxf)) {
        assertEquals(coarse, fine, 1e-12 * (1 + Math.abs(coarse)), "seed " + seed);
      }
    }
  }

  @Test
  void givenArbitraryFacesOnTheCoarseBoundaryIn3D_thenEveryFineCellHasTheCoarseDivergence() {
    checkEveryFineCellHasTheCoarseDivergence(3, true);
  }

  @Test
  void givenArbitraryFacesOnTheCoarseBoundaryIn2D_thenEveryFineCellHasTheCoarseDivergence() {
    checkEveryFineCellHasTheCoarseDivergence(2, true);
  }

  /** The control: random internal faces (left as filled) give the fine cells other divergences. */
  @Test
  void givenTheInternalFacesLeftAlone_thenFineDivergencesDiffer() {
    boolean failed = false;
    try {
      checkEveryFineCellHasTheCoarseDivergence(3, false);
    } catch (AssertionError expected) {
      failed = true;
    }
    assertTrue(failed, "the check must be able to fail");
  }
}
