package org.metope.bvals;

import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.forest.BlockOwnership;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The flux correction of a face field's edge fluxes (the constrained-transport emf correction):
 * a fine block restricts its edge fluxes on the face or edge it shares with a coarser block
 * (each coarse edge the average of the fine edges along it, {@code ElementRefinementKernels})
 * into its coarse buffer and sends them; the coarse block writes them over its own edge fluxes
 * there, on the edges Parthenon's {@code GetFluxCorrectionElements} names: across a face normal
 * to x1 the edges along x2 and x3, across an edge (in 2D a corner of the plane) the edge along
 * it. The box holds every edge of the shared face or edge: on each axis with an offset the shared
 * plane's index, along the others the cells the fine block covers and the node past them.
 */
final class EdgeFluxBoxes {
  private static final TopologicalElement[] EDGES = {
      TopologicalElement.E1, TopologicalElement.E2, TopologicalElement.E3};

  private EdgeFluxBoxes() {}

  /** Whether {@code field}'s fluxes are edge fluxes: a face field declared WITH_FLUXES. */
  static boolean hasEdgeFluxes(FieldInfo field) {
    return field.metadata().topology() == MetadataFlag.FACE
        && field.metadata().isSet(MetadataFlag.WITH_FLUXES);
  }

  /**
   * Writes the box of the edges that the flux correction of {@code block} with {@code nb}
   * carries: on the send side (the fine block) in its coarse buffer's indices, on the receive
   * side (the coarse block) in its own.
   */
  static void box(MeshBlock block, NeighborBlock nb, BoundaryIndices.Range range, int[] box) {
    int first = -1;
    for (int axis = 2; axis >= 0; axis--) {
      first = nb.element().offset(axis) != 0 ? axis : first;
    }
    BoundaryIndices.calc(block, nb, false, range, range == BoundaryIndices.Range.SEND, first + 1,
        box);
    for (int axis = 0; axis < 3; axis++) {
      if (block.region().isSymmetry(axis)) {
        continue;
      }
      int offset = nb.element().offset(axis);
      if (offset == 0) {
        box[2 * axis + 1]++; // the node past the last cell
      } else if (axis != first && offset > 0) {
        box[2 * axis]++; // the upper plane of a second offset axis, as the first one's
        box[2 * axis + 1]++;
      }
    }
  }

  /** Adds the current boundary of {@code s}: its send row and restriction, or its receive row. */
  static void addBoundary(MeshData md, CacheBuildScratch s, boolean sender, int bufferOffset) {
    FieldInfo field = s.field;
    int id = field.id();
    int ndim = s.meshBlock.mesh().ndim();
    box(s.meshBlock, s.nb, sender ? BoundaryIndices.Range.SEND : BoundaryIndices.Range.RECEIVE,
        s.box);
    BlockLayout edges = ArenaPlaces.fluxShape(md, s, id, 1);
    int edgesOffset = ArenaPlaces.fluxOffset(md, id, 1, s.block);
    if (sender) {
      BlockLayout coarse = ArenaPlaces.coarseShape(md, s, id);
      int coarseOffset = ArenaPlaces.coarseOffset(md, id, s.block);
      s.table.add(BoundaryOp.COPY, ndim, coarse, coarseOffset, s.box, bufferOffset);
      int r = s.prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseOffset, s.box, 0);
      BoundaryRows.fine(s.prores, r, s, edges, edgesOffset);
      int[] codes = new int[3];
      int[] owned = new int[3];
      for (int e = 0; e < 3; e++) {
        codes[e] = ElementRows.code(EDGES[e]);
        owned[e] = BoundaryTable.OWNED_ALL;
      }
      s.prores.elements(r, field.numComponents(), owned);
      s.prores.elementCodes(r, codes);
      s.subsets[BvarsSubCache.RESTRICTION].add(r);
    } else {
      int row = s.table.add(BoundaryOp.COPY, ndim, edges, edgesOffset, s.box, bufferOffset);
      s.table.elements(row, field.numComponents(), corrected(s));
    }
  }

  /**
   * Per edge element, the box cells the coarse block takes: every cell of the element's own
   * range for the edges the shared face or edge corrects, none for the others.
   */
  private static int[] corrected(CacheBuildScratch s) {
    int[] owned = new int[3];
    boolean[] active = ElementRows.active(s.meshBlock);
    for (int e = 0; e < 3; e++) {
      boolean along = true;
      for (int axis = 0; axis < 3; axis++) {
        int offset = s.nb.element().offset(axis);
        // An edge lies in the shared face or edge when it runs along no axis with an offset.
        along &= offset == 0 || axis != e;
      }
      owned[e] = along ? BlockOwnership.withinElement(EDGES[e], active) : 0;
    }
    return owned;
  }
}
