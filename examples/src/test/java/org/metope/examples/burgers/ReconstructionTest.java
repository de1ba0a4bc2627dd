package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReconstructionTest {
  /**
   * The monotonised-central limited slope {@code mc(dm, dp)}, through the linear reconstruction of
   * one cell {@code (q0 - dm, q0, q0 + dp)}: {@code ql = q0 + mc / 2}.
   */
  @Test
  void givenOneSidedDifferences_thenTheMonotonisedCentralSlope() {
    assertEquals(2.0, limitedSlope(1.0, 3.0));   // central 2, twice the smaller side 2
    assertEquals(1.5, limitedSlope(1.0, 2.0));   // central 1.5 is the smallest
    assertEquals(-2.0, limitedSlope(-1.0, -5.0)); // sign of the central difference
    assertEquals(0.0, limitedSlope(1.0, -1.0));  // an extremum: no slope
  }

  private static double limitedSlope(double dm, double dp) {
    double q0 = 10.0;
    double[] q = {q0 - dm, q0, q0 + dp};
    double[] ql = new double[1];
    double[] qr = new double[1];
    Reconstruction.linearRow(q, 1, 1, 1, ql, 0, qr, 0);
    assertEquals(q0 - (ql[0] - q0), qr[0], "qr mirrors ql");
    return 2.0 * (ql[0] - q0);
  }

  @Test
  void givenLinearData_thenBothReconstructionsGiveTheFaceValues() {
    double[] q = new double[12];
    for (int n = 0; n < q.length; n++) {
      q[n] = 3.0 + 0.25 * n;
    }
    double[] ql = new double[12];
    double[] qr = new double[12];
    Reconstruction.linearRow(q, 2, 1, 8, ql, 3, qr, 2);
    for (int c = 2; c < 10; c++) {
      assertEquals(q[c] + 0.125, ql[c + 1], 1e-15, "ql of cell " + c);
      assertEquals(q[c] - 0.125, qr[c], 1e-15, "qr of cell " + c);
    }
    Reconstruction.weno5Row(q, 2, 1, 8, ql, 3, qr, 2);
    for (int c = 2; c < 10; c++) {
      assertEquals(q[c] + 0.125, ql[c + 1], 1e-13, "weno5 ql of cell " + c);
      assertEquals(q[c] - 0.125, qr[c], 1e-13, "weno5 qr of cell " + c);
    }
  }

  @Test
  void givenAStepAlongAStride_thenWeno5StaysWithinTheNeighbouringValues() {
    // A column of 10 cells with stride 4: 0 below the step, 1 above.
    double[] q = new double[40];
    for (int n = 5; n < 10; n++) {
      q[4 * n] = 1.0;
    }
    double[] ql = new double[40];
    double[] qr = new double[40];
    for (int c = 2; c < 8; c++) {
      Reconstruction.weno5Row(q, 4 * c, 4, 1, ql, 4 * c + 4, qr, 4 * c);
      assertTrue(ql[4 * c + 4] >= -1e-12 && ql[4 * c + 4] <= 1 + 1e-12, "ql of cell " + c);
      assertTrue(qr[4 * c] >= -1e-12 && qr[4 * c] <= 1 + 1e-12, "qr of cell " + c);
    }
    // Away from the step the states equal the flat values.
    assertEquals(0.0, ql[4 * 3 + 4], 1e-12);
    assertEquals(1.0, qr[4 * 7], 1e-12);
  }
}
