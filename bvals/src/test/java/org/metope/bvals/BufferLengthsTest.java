package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.input.ParameterInput;

/**
 * A looked-up buffer length is the cell count of the boundary's own box, for every boundary of
 * 2D and 3D meshes refined over three levels (finer, same-level and coarser neighbours, every
 * element, both halves of every parent), both ranges, fine or not, cell field or not.
 */
class BufferLengthsTest {
  @ParameterizedTest(name = "dims={0}")
  @ValueSource(ints = {2, 3})
  void givenEveryBoundary_thenTheLengthIsItsBoxs(int dims) {
    String deck = dims == 2 ? ElementMultilevelExchangeTest.deck(2, 32, 8, 3)
        : ElementMultilevelExchangeTest.deck(3, 16, 4, 3);
    InProcessRun.run(1, world -> {
      ParameterInput pin = ParameterInput.parse("lengths.in", deck, List.of());
      Mesh mesh = ValueChannelsTest.twoFieldMesh(pin, world, List.of("base"));
      BufferLengths lengths = new BufferLengths();
      int[] box = new int[6];
      int checked = 0;
      int levelChanges = 0;
      for (MeshBlock block : mesh.blocks()) {
        for (NeighborBlock nb : block.neighbors()) {
          levelChanges += nb.levelDifference() != 0 ? 1 : 0;
          for (BoundaryIndices.Range range : BoundaryIndices.Range.values()) {
            for (int flags = 0; flags < 4; flags++) {
              boolean fine = (flags & 1) != 0;
              boolean cell = (flags & 2) != 0;
              BoundaryRows.valueBox(block, nb, fine, cell, range, box);
              assertEquals(BufferLengths.cells(box), lengths.cells(block, nb, fine, cell, range),
                  () -> "block " + block.gid() + " neighbour " + nb + " " + range);
              checked++;
            }
          }
        }
      }
      assertTrue(levelChanges > 0, "no boundary across levels");
      assertTrue(checked > 0);
    });
  }
}
