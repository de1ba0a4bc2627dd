package org.metope.examples.fieldloop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.WithoutFluxCorrection;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.FieldView;

/**
 * The field-loop deck against what constrained transport promises independently of the scheme's
 * accuracy: the discrete divergence of {@code B} (zero to round-off at the start, by construction
 * from a vector potential) stays at round-off through 60 cycles with remeshes and fine/coarse
 * boundaries, and does not without the emf correction at fine/coarse edges (the negative
 * control: the coarse and fine blocks then change their shared faces by different circulations);
 * 1, 2 and 4 ranks give the same bits.
 */
class FieldLoopTest {
  private static final Path DECK = Path.of("../inputs/field_loop.in");
  private static final String[] SHORT = {"parthenon/time/nlim=60", "parthenon/output1/dt=-1"};

  @TempDir Path dir;

  @Test
  void divergenceStaysAtRoundOffThroughRemeshes() {
    Mesh start = run(InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput,
        "parthenon/time/nlim=0", "parthenon/output1/dt=-1");
    Mesh end = run(InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput, SHORT);
    assertTrue(levels(end) == 3, "three levels, so fine/coarse edges: " + levels(end));
    assertTrue(end.totalBlocks() != start.totalBlocks(), "the refined region moved: "
        + start.totalBlocks() + " -> " + end.totalBlocks());
    assertTrue(maxDivergence(start) < 1e-14, "start: " + maxDivergence(start));
    assertTrue(maxDivergence(end) <= 1e-13, "end: " + maxDivergence(end));
    assertTrue(maxField(end) > 0.5, "the loop is still there: " + maxField(end));
  }

  /**
   * The sign of the Stokes update and of the edge fluxes: the |B|-weighted centre of the loop
   * moves with the flow, by {@code (vx t, vy t)} = (0.1875, 0.09375) after 60 steps of 1/640
   * (upwind diffusion spreads the loop about its centre; a wrong sign would move it backwards or
   * blow it up).
   */
  @Test
  void theLoopMovesWithTheFlow() {
    Mesh start = run(InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput,
        "parthenon/time/nlim=0", "parthenon/output1/dt=-1");
    Mesh end = run(InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput, SHORT);
    double[] from = centre(start);
    double[] to = centre(end);
    assertEquals(0.0, from[0], 1e-12);
    assertEquals(0.0, from[1], 1e-12);
    assertEquals(2.0 * 60 / 640, to[0], 0.01);
    assertEquals(1.0 * 60 / 640, to[1], 0.01);
  }

  /**
   * In 3D (the loop a tube along x3, carried along x3 too, two levels): the edge fluxes of all
   * three directions are corrected across fine/coarse faces; without the correction the
   * divergence grows.
   */
  @Test
  void inThreeDimensionsTheDivergenceStaysAtRoundOffAndNotWithoutCorrection() {
    String[] deck = {"parthenon/mesh/nx1=32", "parthenon/mesh/nx2=16", "parthenon/mesh/nx3=8",
        "parthenon/meshblock/nx3=4", "parthenon/time/nlim=12", "parthenon/output1/dt=-1",
        "field_loop/vz=0.5", "parthenon/mesh/numlevel=2"};
    Mesh end = run(InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput, deck);
    assertEquals(2, levels(end));
    assertTrue(maxDivergence(end) <= 1e-13, "3D: " + maxDivergence(end));
    Mesh control = run(InProcessCluster.singleRank(),
        p -> new WithoutFluxCorrection(InOneBoundaryCommunication.fromInput(p)), deck);
    assertTrue(maxDivergence(control) > 1e-8, "3D without correction: "
        + maxDivergence(control));
  }

  @Test
  void withoutEmfCorrectionTheDivergenceGrowsAtFineCoarseEdges() {
    Mesh end = run(InProcessCluster.singleRank(),
        p -> new WithoutFluxCorrection(InOneBoundaryCommunication.fromInput(p)), SHORT);
    assertTrue(maxDivergence(end) > 1e-8, "without emf correction: " + maxDivergence(end));
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {2, 4})
  void ranksGiveTheSameBitsAsOne(int ranks) {
    Map<Integer, double[]> one = facesByGid(run(InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput, SHORT));
    Map<Integer, double[]> many = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> many.putAll(facesByGid(run(comm,
        InOneBoundaryCommunication::fromInput, SHORT))));
    assertEquals(one.keySet(), new TreeSet<>(many.keySet()));
    for (Map.Entry<Integer, double[]> block : one.entrySet()) {
      assertArrayEquals(block.getValue(), many.get(block.getKey()), 0.0, "gid " + block.getKey());
    }
  }

  private Mesh run(Communicator comm, Function<ParameterInput, BoundaryCommunication> boundaries,
      String... overrides) {
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    ParameterInput pin = ParameterInput.load(DECK, List.of(overrides));
    return ApplicationRunner.simulate(new FieldLoopApplication(), new ApplicationRunner.Launch(
        pin, RunOptions.of(dir, discard), discard, comm, boundaries)).mesh();
  }

  private static int levels(Mesh mesh) {
    TreeSet<Integer> levels = new TreeSet<>();
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        levels.add(md.block(b).loc().level());
      }
    }
    return levels.size();
  }

  /** The largest |div B| dx / amplitude of any cell of this rank. */
  private static double maxDivergence(Mesh mesh) {
    double largest = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        largest = Math.max(largest, FieldLoopPackage.maxDivergence(md, b));
      }
    }
    return largest;
  }

  /** The centre of |B| over the interior faces of this rank, each weighted by its cell's area. */
  private static double[] centre(Mesh mesh) {
    double[] sums = new double[3];
    for (MeshData md : mesh.meshData("base")) {
      FieldView field = FieldView.of(md, "B");
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian x = md.block(b).coords();
        IndexShape cells = md.block(b).cellBounds();
        for (TopologicalElement el : List.of(TopologicalElement.F1, TopologicalElement.F2)) {
          for (int j = cells.start(1, IndexDomain.INTERIOR, el);
              j <= cells.end(1, IndexDomain.INTERIOR, el); j++) {
            for (int i = cells.start(0, IndexDomain.INTERIOR, el);
                i <= cells.end(0, IndexDomain.INTERIOR, el); i++) {
              double w = Math.abs(field.get(el, b, 0, 0, j, i)) * x.dx(0) * x.dx(1);
              sums[0] += w * (el == TopologicalElement.F1 ? x.xf(0, i) : x.x1c(i));
              sums[1] += w * (el == TopologicalElement.F2 ? x.xf(1, j) : x.x2c(j));
              sums[2] += w;
            }
          }
        }
      }
    }
    return new double[] {sums[0] / sums[2], sums[1] / sums[2]};
  }

  /** The largest |B1| of any interior face of this rank, over the amplitude. */
  private static double maxField(Mesh mesh) {
    double largest = 0.0;
    for (Map.Entry<Integer, double[]> block : facesByGid(mesh).entrySet()) {
      for (double v : block.getValue()) {
        largest = Math.max(largest, Math.abs(v) / 1e-3);
      }
    }
    return largest;
  }

  /** Every interior B1 and B2 value of this rank's blocks by gid. */
  private static Map<Integer, double[]> facesByGid(Mesh mesh) {
    Map<Integer, double[]> values = new TreeMap<>();
    for (MeshData md : mesh.meshData("base")) {
      FieldView field = FieldView.of(md, "B");
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        int n = 0;
        double[] v = new double[2 * (cells.ncellsI(IndexDomain.INTERIOR) + 1)
            * (cells.ncellsJ(IndexDomain.INTERIOR) + 1)];
        for (TopologicalElement el : List.of(TopologicalElement.F1, TopologicalElement.F2)) {
          for (int j = cells.start(1, IndexDomain.INTERIOR, el);
              j <= cells.end(1, IndexDomain.INTERIOR, el); j++) {
            for (int i = cells.start(0, IndexDomain.INTERIOR, el);
                i <= cells.end(0, IndexDomain.INTERIOR, el); i++) {
              v[n++] = field.get(el, b, 0, 0, j, i);
            }
          }
        }
        values.put(md.block(b).gid(), v);
      }
    }
    return values;
  }
}
