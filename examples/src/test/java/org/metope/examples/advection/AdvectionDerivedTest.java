package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.ResolvedState;

class AdvectionDerivedTest {
  @Test
  void givenFillDerived_thenEveryCellGhostsIncludedFollowsAdvectedAndTheSparseFieldsAppear() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 8, "")));
    MeshData md = mesh.meshData("base").get(0);
    ResolvedState s = md.state();
    int q = s.fieldId("advected");
    int sparse12 = s.fieldId("one_minus_sqrt_one_minus_advected_sq_12");
    assertFalse(md.isAllocated(sparse12, 0));
    int length = md.layout().blockLength(md.layout().dataInstance(q, 0));
    Arrays.fill(md.data(), md.dataOffset(q, 0), md.dataOffset(q, 0) + length, 0.75);
    md.data()[md.index(q, 0, 0, 0, 0, 0)] = -3.0; // a ghost cell

    mesh.packages().fillDerived(md);

    double[] a = md.data();
    assertTrue(md.isAllocated(sparse12, 0));
    int[] corner = {0, 0, 0};
    int[] inside = {0, 5, 6};
    for (int[] c : new int[][] {corner, inside}) {
      double x = a[md.index(q, 0, 0, c[0], c[1], c[2])];
      double oneMinus = 1.0 - x;
      assertEquals(oneMinus, a[md.index(s.fieldId("one_minus_advected"), 0, 0, c[0], c[1],
          c[2])]);
      assertEquals(oneMinus * oneMinus, a[md.index(s.fieldId("one_minus_advected_sq"), 0, 0,
          c[0], c[1], c[2])]);
      double v12 = 1.0 - Math.sqrt(oneMinus * oneMinus);
      assertEquals(v12, a[md.index(sparse12, 0, 0, c[0], c[1], c[2])]);
      assertEquals(1.0 - v12, a[md.index(s.fieldId("one_minus_sqrt_one_minus_advected_sq_37"),
          0, 0, c[0], c[1], c[2])]);
    }
  }

  @Test
  void givenASmoothGaussianWithAZeroLeft_thenTheGhostCheckFailsTheRun() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 8, 8,
        "profile = smooth_gaussian\n")));
    MeshData md = mesh.meshData("base").get(0);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> AdvectionDerived.squareIt(md));
    assertTrue(e.getMessage().startsWith("Advected not properly initialized"), e.getMessage());
  }

  @Test
  void givenFillDerivedOff_thenNothingIsAllocatedOrWritten() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 8, 8,
        "fill_derived = false\n")));
    MeshData md = mesh.meshData("base").get(0);
    double[] before = md.data().clone();
    mesh.packages().fillDerived(md);
    assertEquals(Arrays.toString(before), Arrays.toString(md.data()));
    assertFalse(md.state().hasField("one_minus_advected"));
  }
}
