package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.kernels.table.IndexBox;

/**
 * Index boxes worked out by hand for an 8^3 block with 2 ghosts (interior 2..9, coarse interior
 * 2..5), the same rules as Parthenon's CalcIndices.
 */
class BoundaryIndicesTest {
  private static final int[] NX = {8, 8, 8};
  private static final boolean[] ACTIVE = {true, true, true};

  private static IndexBox calc(int myLevel, long[] myL, int nbLevel, long[] nbL, int[] off,
      BoundaryIndices.Range range, boolean prores, int fluxAxis) {
    return BoundaryIndices.calc(NX, ACTIVE, 2, myLevel, myL, nbLevel, nbL, off, range, prores,
        fluxAxis);
  }

  @Test
  void givenSameLevelFace_thenSendTheLastInteriorSlabAndReceiveTheGhostSlab() {
    long[] l = {1, 1, 1};
    int[] plusX = {1, 0, 0};
    assertEquals(new IndexBox(8, 9, 2, 9, 2, 9),
        calc(1, l, 1, l, plusX, BoundaryIndices.Range.SEND, false, 0));
    assertEquals(new IndexBox(10, 11, 2, 9, 2, 9),
        calc(1, l, 1, l, plusX, BoundaryIndices.Range.RECEIVE, false, 0));
    int[] corner = {-1, 1, -1};
    assertEquals(new IndexBox(2, 3, 8, 9, 2, 3),
        calc(1, l, 1, l, corner, BoundaryIndices.Range.SEND, false, 0));
    assertEquals(new IndexBox(0, 1, 10, 11, 0, 1),
        calc(1, l, 1, l, corner, BoundaryIndices.Range.RECEIVE, false, 0));
  }

  @Test
  void givenFinerFaceNeighbor_thenSendItsHalfWidenedByTheGhostWidth() {
    long[] me = {0, 0, 0};
    // Fine neighbour across +x, upper half in y (odd ly), lower half in z (even lz).
    long[] fine = {2, 1, 0};
    int[] plusX = {1, 0, 0};
    // y: half 6..9 widened by 2 interior cells -> 4..9; z: half 2..5 widened -> 2..7.
    assertEquals(new IndexBox(8, 9, 4, 9, 2, 7),
        calc(0, me, 1, fine, plusX, BoundaryIndices.Range.SEND, false, 0));
    // Receiving from it: only the half it covers, in this block's own cells.
    assertEquals(new IndexBox(10, 11, 6, 9, 2, 5),
        calc(0, me, 1, fine, plusX, BoundaryIndices.Range.RECEIVE, false, 0));
  }

  @Test
  void givenCoarserFaceNeighbor_thenWorkInTheCoarseBuffer() {
    // Upper child in y (ly odd), lower in z (lz even), coarse neighbour across -x.
    long[] me = {2, 1, 0};
    long[] coarse = {0, 0, 0};
    int[] minusX = {-1, 0, 0};
    // Sending: coarse interior cells next to the face, whole coarse interior along the face.
    assertEquals(new IndexBox(2, 3, 2, 5, 2, 5),
        calc(1, me, 0, coarse, minusX, BoundaryIndices.Range.SEND, false, 0));
    // Receiving: coarse ghosts, widened by 2 towards the parent's other half (y down, z up).
    assertEquals(new IndexBox(0, 1, 0, 5, 2, 7),
        calc(1, me, 0, coarse, minusX, BoundaryIndices.Range.RECEIVE, false, 0));
    // Prolongation: the one coarse ghost layer that covers the two fine ghost layers.
    assertEquals(new IndexBox(1, 1, 1, 5, 2, 6),
        calc(1, me, 0, coarse, minusX, BoundaryIndices.Range.RECEIVE, true, 0));
  }

  @Test
  void givenFluxCorrection_thenTheSharedFaceOnly() {
    long[] fine = {2, 1, 0};
    long[] coarse = {0, 0, 0};
    // Fine block sends its -x face (coarse face index 2) over the coarse interior.
    assertEquals(new IndexBox(2, 2, 2, 5, 2, 5),
        calc(1, fine, 0, coarse, new int[] {-1, 0, 0}, BoundaryIndices.Range.SEND, true, 1));
    // Coarse block receives on its +x face (face index 10) over the fine block's half.
    assertEquals(new IndexBox(10, 10, 6, 9, 2, 5),
        calc(0, coarse, 1, new long[] {2, 1, 0}, new int[] {1, 0, 0},
            BoundaryIndices.Range.RECEIVE, false, 1));
  }

  @Test
  void givenInactiveAxes_thenTheyStayAtIndexZero() {
    IndexBox box = BoundaryIndices.calc(new int[] {8, 1, 1}, new boolean[] {true, false, false},
        2, 0, new long[] {0, 0, 0}, 0, new long[] {1, 0, 0}, new int[] {1, 0, 0},
        BoundaryIndices.Range.SEND, false, 0);
    assertEquals(new IndexBox(8, 9, 0, 0, 0, 0), box);
  }
}
