package org.metope.examples.diffusion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.mesh.WithoutFluxCorrection;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * The diffusion example against answers known without it: the total heat stays what it was
 * across adaptive refinement on a periodic box (and does not without flux correction); the error
 * against the exact Gaussian falls as the square of the cell width; 1 and 2 ranks give the same
 * bits.
 */
class DiffusionTest {
  private static final Path DECK_2D = Path.of("../inputs/diffusion_2d.in");
  private static final String NO_OUTPUTS = "parthenon/output2/dt=-1";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"diffusion_2d.in", "diffusion_3d.in"})
  void totalHeatIsConservedAcrossAdaptiveRefinement(String deck) {
    Path path = Path.of("../inputs", deck);
    Mesh start = DiffusionRuns.run(path, dir, NO_OUTPUTS, "parthenon/time/nlim=0");
    Mesh end = DiffusionRuns.run(path, dir, NO_OUTPUTS);
    double initial = DiffusionRuns.totalHeat(start);
    assertTrue(start.totalBlocks() > 8, "start-up refinement: " + start.totalBlocks());
    assertEquals(initial, DiffusionRuns.totalHeat(end), 1e-14 * initial);
    // And independently of the scheme: the heat of the start is the Gaussian's integral,
    // amplitude (2 pi width^2)^(ndim/2), to the accuracy of cell-centre values on the start-up
    // mesh (1.3e-4 relative in 2D, where the coarse root cells hold the Gaussian's tails).
    int ndim = start.config().ndim();
    assertEquals(Math.pow(2 * Math.PI * 0.05 * 0.05, 0.5 * ndim), initial, 1e-3 * initial);
  }

  @Test
  void adaptiveRunRemeshesWhileItRuns() {
    Mesh start = DiffusionRuns.run(DECK_2D, dir, NO_OUTPUTS, "parthenon/time/nlim=0");
    Mesh end = DiffusionRuns.run(DECK_2D, dir, NO_OUTPUTS);
    assertNotEquals(start.totalBlocks(), end.totalBlocks(), "the Gaussian flattened: merged");
  }

  @Test
  void withoutFluxCorrectionHeatIsNotConserved() {
    ParameterInput pin = ParameterInput.load(DECK_2D, List.of(NO_OUTPUTS));
    Mesh end = DiffusionRuns.run(pin, dir, InProcessCluster.singleRank(),
        p -> new WithoutFluxCorrection(InOneBoundaryCommunication.fromInput(p)));
    double initial = DiffusionRuns.totalHeat(
        DiffusionRuns.run(DECK_2D, dir, NO_OUTPUTS, "parthenon/time/nlim=0"));
    double drift = Math.abs(DiffusionRuns.totalHeat(end) - initial) / initial;
    assertTrue(drift > 1e-10, "relative drift without flux correction: " + drift);
  }

  /**
   * L1 errors at {@code tlim} on uniform meshes of 32^2, 64^2 and 128^2 cells: the scheme is
   * second order in space, and rk2 with {@code dt ~ dx^2} adds a time error of order {@code
   * dx^4}, so each halving of the cell divides the error by 4.
   */
  @Test
  void errorAgainstTheExactGaussianFallsAsTheSquareOfTheCellWidth() {
    double[] errors = new double[3];
    for (int level = 0; level < 3; level++) {
      int n = 32 << level;
      errors[level] = l1Error(DiffusionRuns.run(DECK_2D, dir, NO_OUTPUTS,
          "parthenon/mesh/refinement=none", "parthenon/mesh/numlevel=1",
          "parthenon/mesh/nx1=" + n, "parthenon/mesh/nx2=" + n), 0.002);
    }
    for (int level = 1; level < 3; level++) {
      double order = Math.log(errors[level - 1] / errors[level]) / Math.log(2.0);
      assertEquals(2.0, order, 0.1, "errors " + errors[0] + ", " + errors[1] + ", " + errors[2]);
    }
  }

  private static double l1Error(Mesh mesh, double t) {
    int cells = 0;
    for (MeshData md : mesh.meshData("base")) {
      cells += md.numBlocks() * mesh.config().blockNx1() * mesh.config().blockNx2();
    }
    double[] u = new double[cells];
    double[] exact = new double[cells];
    double[] volume = new double[cells];
    int n = 0;
    for (MeshData md : mesh.meshData("base")) {
      int field = md.state().fieldId("u");
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian x = md.block(b).coords();
        IndexShape box = md.block(b).cellBounds();
        for (int j = DiffusionPackage.start(box, 1); j <= DiffusionPackage.end(box, 1); j++) {
          for (int i = DiffusionPackage.start(box, 0); i <= DiffusionPackage.end(box, 0); i++) {
            u[n] = md.data()[md.index(field, b, 0, 0, j, i)];
            double r2 = x.x1c(i) * x.x1c(i) + x.x2c(j) * x.x2c(j);
            exact[n] = HeatEquation.gaussian(1.0, 0.05, 1.0, 2, t, r2);
            volume[n++] = x.cellVolume();
          }
        }
      }
    }
    return HeatEquation.l1Error(u, exact, volume, n);
  }

  @Test
  void oneAndTwoRanksGiveTheSameBits() {
    Map<Integer, double[]> one = DiffusionRuns.valuesByGid(
        DiffusionRuns.run(DECK_2D, dir, NO_OUTPUTS));
    Map<Integer, double[]> two = new ConcurrentHashMap<>();
    InProcessRun.run(2, comm -> two.putAll(DiffusionRuns.valuesByGid(DiffusionRuns.run(
        ParameterInput.load(DECK_2D, List.of(NO_OUTPUTS)), dir, comm,
        InOneBoundaryCommunication::fromInput))));
    assertEquals(one.keySet(), new TreeSet<>(two.keySet()));
    for (Map.Entry<Integer, double[]> block : one.entrySet()) {
      assertArrayEquals(block.getValue(), two.get(block.getKey()), 0.0, "gid " + block.getKey());
    }
  }
}
