package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.UniformCartesian;

class AdvectionProblemTest {
  private static MeshData generated(int ndim, String advection) {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(ndim, 16, 8,
        advection)));
    AdvectionProblem problem = new AdvectionProblem(
        mesh.packages().get(AdvectionPackage.NAME).params());
    MeshData md = mesh.meshData("base").get(0);
    for (int b = 0; b < md.numBlocks(); b++) {
      problem.generate(md, b);
    }
    return md;
  }

  private static double advected(MeshData md, int b, int k, int j, int i) {
    return md.data()[md.index(md.state().fieldId("advected"), b, 0, k, j, i)];
  }

  @Test
  void givenAHardSphere_thenOneInsideRadiusPointOneFiveAndZeroOutsideAndInGhosts() {
    MeshData md = generated(3, "profile = hard_sphere\n");
    // Block 7 is the upper corner block; its cell (2, 2, 2) is centred at (1/32, 1/32, 1/32).
    assertEquals(1.0, advected(md, 7, 2, 2, 2));
    assertEquals(0.0, advected(md, 7, 9, 9, 9), "centre (15/32, ...): outside");
    assertEquals(0.0, advected(md, 7, 0, 2, 2), "ghost cells are left to the exchange");
    // (5/32)^2 * 3 = 0.0732 > 0.0225 at (2 + 4, 2 + 4, 2 + 4) but (3/32, 1/32, 1/32) is inside.
    assertEquals(1.0, advected(md, 7, 2, 2, 3));
  }

  @Test
  void givenASmoothGaussian_thenOnePlusAmpTimesExpOfMinusHundredRSquared() {
    MeshData md = generated(2, "profile = smooth_gaussian\namp = 0.5\n");
    UniformCartesian x = md.block(3).coords();
    double r2 = x.x1c(5) * x.x1c(5) + x.x2c(4) * x.x2c(4) + x.x3c(0) * x.x3c(0);
    assertEquals(0.0, x.x3c(0), "a 2D mesh sits at the middle of its x3 range");
    assertEquals(1.0 + 0.5 * Math.exp(-100 * r2), advected(md, 3, 0, 4, 5), 1e-15);
  }

  @Test
  void givenAWaveAlongX1_thenOnePlusAmpSinKxTimesTheSpeed() {
    MeshData md = generated(1, "profile = wave\namp = 0.01\nang_2 = 0\nang_3 = 0\nvx = 2\n"
        + "vy = 0\nvz = 0\n");
    UniformCartesian x = md.block(1).coords();
    assertEquals(1.0 + 0.01 * Math.sin(2 * Math.PI * x.x1c(6)) * 2.0, advected(md, 1, 0, 0, 6),
        1e-15);
  }

  @Test
  void givenTheBlockProfile_thenSixCellsOfBlockZeroMoveAlongTheAxes() {
    MeshData md = generated(3, "profile = block\nv_const = false\nvx = 1\nvy = 2\nvz = 3\n");
    int v = md.state().fieldId("v");
    assertEquals(10.0, advected(md, 0, 4, 6, 4));
    assertEquals(-1.0, md.data()[md.index(v, 0, 0, 4, 6, 4)]);
    assertEquals(2.0, md.data()[md.index(v, 0, 1, 6, 4, 4)]);
    assertEquals(-3.0, md.data()[md.index(v, 0, 2, 4, 10, 8)]);
    assertEquals(0.0, advected(md, 1, 4, 6, 4), "only block gid 0 is seeded");
  }
}
