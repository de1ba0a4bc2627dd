package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.metope.mesh.geometry.TopologicalElement.CC;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.JvmKernelBackend;
import org.metope.mesh.FinePackages;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;

/**
 * {@code FINE} fields through a remesh, beside a cell field: a root block is refined, then its
 * children merge back. Every field starts as a linear function of position on every value,
 * ghosts included; the new fine blocks are prolongated from their parent's cells (min-mod slopes
 * reproduce a linear function), the merged block is restricted from its children's (averages
 * do too), so every interior value of every block is the function after each step, on one and
 * two ranks. Negative control: a function with an {@code x^2} term, which neither operator
 * reproduces, is off after the refinement.
 */
class FineRemeshTest {
  private static final List<String> FIELDS = List.of("phi", "phi_fine", "v_fine");

  private static double function(double[] x, int n, boolean square) {
    return 1 + 2 * x[0] - 3 * x[1] + 5 * x[2] + 10 * n + (square ? 7 * x[0] * x[0] : 0);
  }

  /** Visits every value of {@code domain} of a field on one block with its position. */
  private interface Value {
    void at(FieldView v, int b, int n, int k, int j, int i, double[] x);
  }

  private static void forEach(Mesh mesh, String name, IndexDomain domain, Value value) {
    for (MeshData md : mesh.meshData("base")) {
      FieldView v = FieldView.of(md, name);
      boolean fine = md.state().field(name).metadata().isFine();
      for (int b = 0; b < md.numBlocks(); b++) {
        MeshBlock block = md.block(b);
        IndexShape shape = block.bounds(fine, false);
        UniformCartesian xs = fine ? block.fineCoords() : block.coords();
        double[] x = new double[3];
        for (int n = 0; n < v.numComponents(); n++) {
          for (int k = shape.start(2, domain, CC); k <= shape.end(2, domain, CC); k++) {
            for (int j = shape.start(1, domain, CC); j <= shape.end(1, domain, CC); j++) {
              for (int i = shape.start(0, domain, CC); i <= shape.end(0, domain, CC); i++) {
                x[0] = xs.x1c(i);
                x[1] = xs.x2c(j);
                x[2] = mesh.ndim() == 3 ? xs.x3c(k) : 0;
                value.at(v, b, n, k, j, i, x);
              }
            }
          }
        }
      }
    }
  }

  /** Wrong interior values of every field, and how many were checked. */
  private static long[] check(Mesh mesh, boolean square) {
    long[] counts = new long[2];
    for (String name : FIELDS) {
      forEach(mesh, name, IndexDomain.INTERIOR, (v, b, n, k, j, i, x) -> {
        double expected = function(x, n, square);
        counts[1]++;
        if (!(Math.abs(v.get(b, n, k, j, i) - expected) <= 1e-12 * (1 + Math.abs(expected)))) {
          counts[0]++;
        }
      });
    }
    return counts;
  }

  /** Wrong and checked values before, after the refinement and after the merge. */
  private static long[][] refineThenMerge(Communicator comm, int ndim, boolean square) {
    String deck = ndim == 2 ? AmrFixtures.deck2d(32, 8, 3, "") : AmrFixtures.deck3d(16, 8, 3, "");
    LogicalLocation root = ndim == 2 ? new LogicalLocation(2, 1, 1, 0)
        : new LogicalLocation(1, 1, 0, 1);
    Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(deck), FinePackages.cellAndFine(), comm);
    for (String name : FIELDS) {
      forEach(mesh, name, IndexDomain.ENTIRE,
          (v, b, n, k, j, i, x) -> v.set(b, n, k, j, i, function(x, n, square)));
    }
    BlockMigration migration = new BlockMigration(comm.duplicate(), new JvmKernelBackend(1),
        BlockRecords.forMesh(mesh), ndim, mesh.nghost());
    long[] initial = check(mesh, square);
    int[] counts = new int[mesh.blocks().size()];
    mesh.forest().refine(root);
    counts = BlockMigrationTest.moveData(mesh, migration, counts);
    long[] refined = check(mesh, square);
    mesh.forest().derefine(root);
    BlockMigrationTest.moveData(mesh, migration, counts);
    return new long[][] {initial, refined, check(mesh, square)};
  }

  @ParameterizedTest(name = "{0}D")
  @ValueSource(ints = {2, 3})
  void givenARefineAndAMerge_thenEveryFineAndCellValueIsTheLinearFunction(int ndim) {
    for (int ranks = 1; ranks <= 2; ranks++) {
      long[][][] found = new long[ranks][][];
      InProcessRun.run(ranks, comm -> found[comm.rank()] = refineThenMerge(comm, ndim, false));
      for (long[][] rank : found) {
        for (int step = 0; step < 3; step++) {
          assertEquals(0, rank[step][0], "step " + step + " on " + ranks + " ranks");
        }
      }
      long checked = 0;
      for (long[][] rank : found) {
        checked += rank[1][1];
      }
      assertTrue(checked > 0);
    }
  }

  @ParameterizedTest(name = "{0}D")
  @ValueSource(ints = {2, 3})
  void givenAQuadratic_thenTheRefinedBlocksAreOff(int ndim) {
    long[][][] found = new long[1][][];
    InProcessRun.run(1, comm -> found[0] = refineThenMerge(comm, ndim, true));
    assertEquals(0, found[0][0][0], "nothing moved yet");
    assertTrue(found[0][1][0] > 0, "refined: " + found[0][1][0]);
  }
}
