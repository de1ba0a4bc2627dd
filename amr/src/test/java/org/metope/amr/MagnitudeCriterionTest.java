package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;

class MagnitudeCriterionTest {
  private final Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
      AmrFixtures.toy(null), InProcessCluster.singleRank());
  private final MeshData md = mesh.meshData("base").get(0);
  private final int q = mesh.resolvedPackages().fieldId("q");
  /** The root block at the right end of the bottom row, x in [0.75, 1]. */
  private final int right = mesh.locations().indexOf(new LogicalLocation(2, 3, 0, 0));

  private int check(boolean greaterThan, double refine, double derefine, int block) {
    return new MagnitudeCriterion(new RefinementCriterion.Settings(q, 0, refine, derefine, 3),
        mesh.blocks().get(0).cellBounds(), greaterThan).check(md, block);
  }

  @Test
  void givenGreaterThan_thenLargeValuesRefineAndSmallOnesDerefine() {
    AmrFixtures.fillLinear(mesh, "q", 0.0, 1.0, 0.0, 0.0);

    // Block 0's bounds reach x = 0.25 + dx/2 = 0.265625, the right block's 1.015625.
    assertEquals(AmrTag.REFINE_VALUE, check(true, 0.26, 0.1, 0));
    assertEquals(AmrTag.SAME_VALUE, check(true, 0.27, 0.1, 0));
    assertEquals(AmrTag.DEREFINE_VALUE, check(true, 0.5, 0.27, 0));
    assertEquals(AmrTag.REFINE_VALUE, check(true, 1.0, 0.5, right));
  }

  @Test
  void givenLessThan_thenSmallValuesRefine() {
    AmrFixtures.fillLinear(mesh, "q", 0.0, 1.0, 0.0, 0.0);

    // The right block's least value is 0.75 - dx/2 = 0.734375: it refines below refine_tol and
    // derefines above derefine_tol.
    assertEquals(AmrTag.REFINE_VALUE, check(false, 0.74, 0.9, right));
    assertEquals(AmrTag.SAME_VALUE, check(false, 0.7, 0.9, right));
    assertEquals(AmrTag.DEREFINE_VALUE, check(false, 0.5, 0.7, right));
  }

  @Test
  void givenAnUnallocatedSparseField_thenSame() {
    int s = mesh.resolvedPackages().fieldId("s_1");
    MagnitudeCriterion c = new MagnitudeCriterion(
        new RefinementCriterion.Settings(s, 0, -1.0, -2.0, 3), mesh.blocks().get(0).cellBounds(),
        true);

    assertEquals(AmrTag.SAME_VALUE, c.check(md, 0));
    mesh.fields().allocateSparse(s, 0);
    assertEquals(AmrTag.REFINE_VALUE, c.check(md, 0));
  }
}
