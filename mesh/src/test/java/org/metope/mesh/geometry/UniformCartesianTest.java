package org.metope.mesh.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UniformCartesianTest {

  private static RegionSize block3d() {
    return new RegionSize(new double[] {0.0, -1.0, 2.0}, new double[] {1.0, 1.0, 4.0},
        new int[] {8, 16, 4}, new boolean[] {false, false, false});
  }

  @Test
  void givenABlock_thenWidthsAreExtentOverCellsAndGhostsPrecedeTheLowerBound() {
    UniformCartesian c = new UniformCartesian(block3d(), 2);
    assertEquals(0.125, c.dx(0));
    assertEquals(0.125, c.dx(1));
    assertEquals(0.5, c.dx(2));
    assertEquals(2, c.startIndex(0));
    assertEquals(0.0, c.xf(0, 2), 1e-15);
    assertEquals(0.0625, c.x1c(2), 1e-15);
    assertEquals(-0.0625, c.x1c(1), 1e-15); // a ghost cell below the block
    assertEquals(1.0, c.x1f(10), 1e-15);
    assertEquals(-1.0 + 0.0625, c.x2c(2), 1e-15);
    assertEquals(2.25, c.xc(2, 2), 1e-15);
    assertEquals(4.0, c.x3f(6), 1e-15);
  }

  @Test
  void givenABlock_thenAreasAndVolumesAreProductsOfWidths() {
    UniformCartesian c = new UniformCartesian(block3d(), 2);
    assertEquals(0.125 * 0.5, c.faceArea(0));
    assertEquals(0.125 * 0.5, c.faceArea(1));
    assertEquals(0.125 * 0.125, c.faceArea(2));
    assertEquals(0.125 * 0.125 * 0.5, c.cellVolume());
    assertEquals(c.faceArea(1), c.volume(TopologicalElement.F2));
    assertEquals(0.5, c.volume(TopologicalElement.E3));
    assertEquals(1.0, c.volume(TopologicalElement.NN));
    assertEquals(0.125, c.edgeLength(1));
  }

  @Test
  void givenAnInactiveAxis_thenItHasOneCellOverTheWholeExtentAndNoGhosts() {
    RegionSize block = new RegionSize(new double[] {0, 0, -0.5}, new double[] {2, 1, 0.5},
        new int[] {16, 8, 1}, new boolean[] {false, false, true});
    UniformCartesian c = new UniformCartesian(block, 2);
    assertEquals(1.0, c.dx(2));
    assertEquals(0, c.startIndex(2));
    assertEquals(0.0, c.x3c(0), 1e-15);
    assertEquals(0.125 * 0.125 * 1.0, c.cellVolume());
  }

  @Test
  void givenCoarsening_thenActiveWidthsDoubleAndTheInteriorStillStartsAtTheLowerBound() {
    RegionSize block = new RegionSize(new double[] {0, 0, -0.5}, new double[] {1, 1, 0.5},
        new int[] {8, 8, 1}, new boolean[] {false, false, true});
    UniformCartesian coarse = new UniformCartesian(block, 2).coarsened(2);
    assertEquals(0.25, coarse.dx(0));
    assertEquals(0.25, coarse.dx(1));
    assertEquals(1.0, coarse.dx(2));
    assertEquals(0.0, coarse.x1f(2), 1e-15);
    assertEquals(0.125, coarse.x2c(2), 1e-15);
    assertEquals(1.0, coarse.x1f(6), 1e-15);
  }
}
