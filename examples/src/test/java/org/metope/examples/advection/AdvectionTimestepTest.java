package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;

class AdvectionTimestepTest {
  @Test
  void givenVelocities_thenCflTimesTheSmallestCellCrossingTimeOverNonZeroComponents() {
    // dx = 1/16 on every axis of a 3D mesh of 16 cells per side.
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 16, 8,
        "cfl = 0.4\nvx = 0.5\nvy = -4.0\nvz = 2.0\n")));
    assertEquals(0.4 * (1.0 / 16) / 4.0,
        mesh.packages().get(AdvectionPackage.NAME).estimateTimestep(mesh.meshData("base").get(0)));
    Mesh still = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 16, 8,
        "cfl = 0.4\nvx = 1.0\nvy = 0.0\nvz = 0.0\n")));
    assertEquals(0.4 * (1.0 / 16), still.packages().get(AdvectionPackage.NAME)
        .estimateTimestep(still.meshData("base").get(0)));
  }

  @Test
  void givenPartitionsOfCoarseAndFineBlocksEstimatedInTurn_thenEachUsesItsOwnSpacing() {
    // 4 root blocks of 8 cells on [-0.5, 0.5] (dx = 1/32); the last one refined (dx = 1/64).
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 32, 8,
        "cfl = 0.4\nvx = 1.0\n"), "parthenon/mesh/refinement=static",
        "parthenon/mesh/numlevel=2", "parthenon/static_refinement0/x1min=0.3",
        "parthenon/static_refinement0/x1max=0.4", "parthenon/static_refinement0/level=1",
        "parthenon/mesh/pack_size=2"));
    List<MeshData> parts = mesh.meshData("base");
    assertEquals(3, parts.size(), "blocks: two coarse, a coarse and a fine, a fine");
    StateDescriptor pkg = mesh.packages().get(AdvectionPackage.NAME);
    for (int round = 0; round < 2; round++) {
      assertEquals(0.4 / 32, pkg.estimateTimestep(parts.get(0)), "round " + round);
      assertEquals(0.4 / 64, pkg.estimateTimestep(parts.get(1)), "round " + round);
      assertEquals(0.4 / 64, pkg.estimateTimestep(parts.get(2)), "round " + round);
    }
  }
}
