package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;

class DerivativeCriterionTest {
  private final Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
      AmrFixtures.toy(null), InProcessCluster.singleRank());
  private final MeshData md = mesh.meshData("base").get(0);
  private final int q = mesh.resolvedPackages().fieldId("q");

  private DerivativeCriterion criterion(int order, double refine, double derefine) {
    return new DerivativeCriterion(new RefinementCriterion.Settings(q, 0, refine, derefine, 3),
        mesh.blocks().get(0).cellBounds(), order);
  }

  private double measure(DerivativeCriterion c, int block) {
    var layout = md.layout();
    int inst = layout.dataInstance(q, 0);
    return c.measure(md.data(), md.dataOffset(q, block), layout.jStride(inst),
        layout.kStride(inst), new RefinementCriterion.Bounds(md.block(block).cellBounds()));
  }

  @Test
  void givenALinearField_thenTheFirstDifferenceIsTheRelativeSlopeAtTheSmallestValue() {
    AmrFixtures.fillLinear(mesh, "q", 1.0, 1.0, 0.0, 0.0);
    double dx = 1.0 / 32;

    // Block 0 spans x in [0, 0.25]; its bounds reach the ghost centred at -dx/2, where q is least.
    double expected = 0.5 * (2 * dx) / (1.0 - dx / 2);
    assertEquals(expected, measure(criterion(1, 0.5, 0.05), 0), 1e-15);
    assertEquals(AmrTag.REFINE_VALUE, criterion(1, 0.03, 0.01).check(md, 0));
    assertEquals(AmrTag.SAME_VALUE, criterion(1, 0.04, 0.01).check(md, 0));
    assertEquals(AmrTag.DEREFINE_VALUE, criterion(1, 0.5, 0.04).check(md, 0));
    assertEquals(0.0, measure(criterion(2, 0.5, 0.05), 0), 1e-15);
  }

  @Test
  void givenARidgeAlongX_thenBothOrdersSeeItAlongTheSecondAxis() {
    AmrFixtures.fillLinear(mesh, "q", 1.0, 0.0, 0.0, 0.0);
    int row = md.index(q, 5, 0, 0, 6, 0);
    for (int i = 0; i < 12; i++) {
      md.data()[row + i] = 3.0;
    }

    // First order: 0.5 |3 - 1| / 1 next to the ridge; second order: |1 - 3| / (1 + 3) on it.
    assertEquals(1.0, measure(criterion(1, 0.5, 0.05), 5), 1e-15);
    assertEquals(0.5, measure(criterion(2, 0.5, 0.05), 5), 1e-15);
    assertEquals(0.0, measure(criterion(1, 0.5, 0.05), 4), 0.0);
  }

  @Test
  void givenAnUnknownOrder_thenMisuse() {
    assertThrows(IllegalArgumentException.class, () -> criterion(3, 0.5, 0.05));
  }
}
