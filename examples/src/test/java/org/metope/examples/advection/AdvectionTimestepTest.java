package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;

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
}
