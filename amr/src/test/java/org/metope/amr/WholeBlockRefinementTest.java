package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.metope.kernels.JvmKernelBackend;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelKind;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Linear fields survive both operations exactly (up to rounding): the minmod slopes of a linear
 * function are its gradient, and the volume average of a linear function is its centre value.
 */
class WholeBlockRefinementTest {
  private static final double A = 0.5;
  private static final double B = 2.0;
  private static final double C = -3.0;
  private static final double E = 1.25;

  private static double f(double x, double y, double z) {
    return A + B * x + C * y + E * z;
  }

  private static Mesh mesh(int ndim) {
    String deck = ndim == 2 ? AmrFixtures.deck2d(32, 8, 3, "")
        : AmrFixtures.deck3d(16, 8, 3, "");
    return AmrFixtures.mesh(AmrFixtures.pin(deck), AmrFixtures.toy(null),
        InProcessCluster.singleRank());
  }

  /** Sets the coarse buffer of {@code field} on block {@code b} to f at coarse cell centres. */
  private static void fillCoarse(FieldStorage s, int field, int b) {
    ArenaLayout layout = s.layout();
    int inst = layout.coarseInstance(field);
    UniformCartesian coarse = s.block(b).coords().coarsened(2);
    for (int k = 0; k < layout.nk(inst); k++) {
      for (int j = 0; j < layout.nj(inst); j++) {
        for (int i = 0; i < layout.ni(inst); i++) {
          s.data()[layout.index(inst, b, 0, k, j, i)] =
              f(coarse.x1c(i), coarse.x2c(j), coarse.x3c(k));
        }
      }
    }
  }

  @Test
  void givenLinearCoarseBuffers_thenProlongationGivesTheLinearFunctionOnEveryFineCell() {
    for (int ndim = 2; ndim <= 3; ndim++) {
      Mesh mesh = mesh(ndim);
      FieldStorage s = mesh.fields();
      int q = mesh.resolvedPackages().fieldId("q");
      WholeBlockRefinement p = WholeBlockRefinement.prolongation(s, ndim, mesh.nghost());
      for (int b : new int[] {1, 2}) {
        fillCoarse(s, q, b);
        p.add(b, q);
      }
      try (KernelBackend backend = new JvmKernelBackend(2)) {
        p.run(backend);
        assertEquals(1, backend.launches(KernelKind.PROLONGATE));
      }
      int inst = s.layout().dataInstance(q, 0);
      for (int b : new int[] {1, 2}) {
        MeshBlock block = s.block(b);
        UniformCartesian xs = block.coords();
        var cells = block.cellBounds();
        // nghost / 2 coarse cells beyond the interior cover every fine ghost too.
        for (int k = 0; k < cells.entireNcells(2); k++) {
          for (int j = 0; j < cells.entireNcells(1); j++) {
            for (int i = 0; i < cells.entireNcells(0); i++) {
              assertEquals(f(xs.x1c(i), xs.x2c(j), xs.x3c(k)),
                  s.data()[s.layout().index(inst, b, 0, k, j, i)], 1e-13,
                  "ndim=" + ndim + " b=" + b + " " + k + "," + j + "," + i);
            }
          }
        }
      }
      assertEquals(0.0, s.data()[s.layout().index(inst, 0, 0, 0, 3, 3)]);
    }
  }

  @Test
  void givenLinearBlocks_thenRestrictionGivesTheCentreValuesInTheCoarseInterior() {
    for (int ndim = 2; ndim <= 3; ndim++) {
      Mesh mesh = mesh(ndim);
      AmrFixtures.fillLinear(mesh, "q", A, B, C, E);
      FieldStorage s = mesh.fields();
      int q = mesh.resolvedPackages().fieldId("q");
      WholeBlockRefinement r = WholeBlockRefinement.restriction(s, ndim, mesh.nghost());
      r.add(3, q);
      assertEquals(1, r.size());
      r.run(new JvmKernelBackend(1));
      int inst = s.layout().coarseInstance(q);
      UniformCartesian coarse = s.block(3).coords().coarsened(2);
      int g = mesh.nghost();
      int kEnd = ndim == 3 ? g + 4 : 1;
      for (int k = ndim == 3 ? g : 0; k < kEnd; k++) {
        for (int j = g; j < g + 4; j++) {
          for (int i = g; i < g + 4; i++) {
            assertEquals(f(coarse.x1c(i), coarse.x2c(j), coarse.x3c(k)),
                s.data()[s.layout().index(inst, 3, 0, k, j, i)], 1e-13);
          }
        }
      }
      // Coarse ghosts are left alone.
      assertEquals(0.0, s.data()[s.layout().index(inst, 3, 0, ndim == 3 ? g : 0, 0, 0)]);
    }
  }

  @Test
  void givenNothingAdded_thenNoLaunchAndAnUnallocatedFieldIsMisuse() {
    Mesh mesh = mesh(2);
    KernelBackend backend = new JvmKernelBackend(1);
    WholeBlockRefinement.prolongation(mesh.fields(), 2, 2).run(backend);
    assertEquals(0, backend.launches(KernelKind.PROLONGATE));
    int sparse = mesh.resolvedPackages().fieldId("s_1");
    assertThrows(IllegalStateException.class,
        () -> WholeBlockRefinement.restriction(mesh.fields(), 2, 2).add(0, sparse));
  }
}
