package org.metope.bvals;

import static org.metope.bvals.ArenaPlaces.coarseOffset;
import static org.metope.bvals.ArenaPlaces.coarseShape;
import static org.metope.bvals.ArenaPlaces.dataOffset;
import static org.metope.bvals.ArenaPlaces.dataShape;
import static org.metope.bvals.ArenaPlaces.fluxOffset;
import static org.metope.bvals.ArenaPlaces.fluxShape;
import static org.metope.bvals.ElementRows.allOwned;
import static org.metope.bvals.ElementRows.code;
import static org.metope.bvals.ElementRows.elementRow;
import static org.metope.bvals.ElementRows.ownedByElement;
import static org.metope.bvals.ElementRows.senderOwnership;
import static org.metope.bvals.ElementRows.senderOwns;

import java.util.Arrays;
import java.util.List;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.mesh.FineSide;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The rows one boundary adds to a {@link BvarsSubCache}'s tables, the scratch's current boundary
 * ({@link CacheBuildScratch}): Parthenon's {@code BndInfo::GetSendBndInfo}/{@code GetSetBndInfo}
 * and its {@code ProResInfo} creators. {@link BoundaryCacheBuilder} walks the boundaries and
 * calls these once per boundary, in cache order.
 *
 * <p>What each boundary does:
 *
 * <ul>
 *   <li>send to a same-level or finer neighbour: copy the block's cells into the buffer;
 *   <li>send to a coarser neighbour: restrict the block's cells into its coarse buffer (a
 *       refinement entry), then copy from the coarse buffer, as Parthenon does, so the coarse
 *       buffer's interior next to the neighbour is up to date for this block's own prolongation;
 *   <li>receive from a same-level or finer neighbour: copy into the ghosts; on a block that also
 *       has a coarser neighbour, restrict those ghosts into the coarse buffer afterwards (they
 *       are part of the prolongation stencils);
 *   <li>receive from a coarser neighbour: copy into the coarse buffer, then prolongate into the
 *       ghosts;
 *   <li>flux correction: the fine block sends the area-weighted average of its face fluxes on the
 *       shared face; the coarse block copies them over its own face fluxes.
 * </ul>
 */
final class BoundaryRows {
  private BoundaryRows() {}

  /**
   * Writes into {@code box} the box of a same-level or cross-level value boundary of {@code
   * field} on {@code block}: the cell box, or for a face, edge or node field the box of all its
   * elements ({@link BoundaryIndices#forElements}).
   */
  static void valueBox(MeshBlock block, NeighborBlock nb, FieldInfo field,
      BoundaryIndices.Range range, int[] box) {
    valueBox(block, nb, field.metadata().isFine(), isCell(field), range, box);
  }

  /** The same for a field that is {@code FINE} or not and a cell field or not. */
  static void valueBox(MeshBlock block, NeighborBlock nb, boolean fine, boolean cell,
      BoundaryIndices.Range range, int[] box) {
    BoundaryIndices.calc(block, nb, fine, range, false, 0, box);
    if (!cell) {
      BoundaryIndices.forElements(box, block);
    }
  }

  private static boolean isFine(CacheBuildScratch s) {
    return s.field.metadata().isFine();
  }

  static boolean isCell(FieldInfo field) {
    return field.metadata().elements().get(0) == TopologicalElement.CC;
  }

  static void addSendBoundary(MeshData md, CacheBuildScratch s, int bufferOffset) {
    valueBox(s.meshBlock, s.nb, s.field, BoundaryIndices.Range.SEND, s.box);
    int ndim = s.meshBlock.mesh().ndim();
    int field = s.field.id();
    if (s.nb.isCoarser()) {
      BlockLayout coarse = coarseShape(md, s, field);
      int coarseOffset = coarseOffset(md, field, s.block);
      s.table.add(BoundaryOp.COPY, ndim, coarse, coarseOffset, s.box, bufferOffset);
      int r = s.prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseOffset, s.box, 0);
      fine(s.prores, r, s, dataShape(md, s, field), dataOffset(md, field, s.block));
      if (!isCell(s.field)) {
        elementRow(s.prores, r, s.field, allOwned(s.field));
      }
      s.subsets[BvarsSubCache.RESTRICTION].add(r);
    } else {
      s.table.add(BoundaryOp.COPY, ndim, dataShape(md, s, field), dataOffset(md, field, s.block),
          s.box, bufferOffset);
    }
  }

  static void addReceiveBoundary(MeshData md, CacheBuildScratch s, int bufferOffset) {
    MeshBlock block = s.meshBlock;
    int ndim = block.mesh().ndim();
    int field = s.field.id();
    valueBox(block, s.nb, s.field, BoundaryIndices.Range.RECEIVE, s.box);
    BlockLayout data = dataShape(md, s, field);
    int dataOffset = dataOffset(md, field, s.block);
    int row = s.nb.isCoarser()
        ? s.table.add(BoundaryOp.COPY, ndim, coarseShape(md, s, field),
            coarseOffset(md, field, s.block), s.box, bufferOffset)
        : s.table.add(BoundaryOp.COPY, ndim, data, dataOffset, s.box, bufferOffset);
    if (!isCell(s.field)) {
      s.table.elements(row, s.field.numComponents(), ownedByElement(s));
    }
    if (!block.mesh().isMultilevel()) {
      return;
    }
    // The cell box in coarse space, and the box of all elements (the same for a cell field).
    BoundaryIndices.calc(block, s.nb, isFine(s), BoundaryIndices.Range.RECEIVE, true, 0,
        s.cellBox);
    System.arraycopy(s.cellBox, 0, s.coarseBox, 0, 6);
    if (!isCell(s.field)) {
      BoundaryIndices.forElements(s.coarseBox, block);
    }
    BlockLayout coarse = coarseShape(md, s, field);
    int coarseOffset = coarseOffset(md, field, s.block);
    if (s.nb.isCoarser()) {
      int p = s.prores.add(BoundaryOp.PROLONGATE, ndim, coarse, coarseOffset, s.coarseBox, 0);
      fine(s.prores, p, s, data, dataOffset);
      s.prores.slopes(p, s.field.metadata().refinementOps().prolongation().tableSlopes());
      s.subsets[BvarsSubCache.PROLONGATION].add(p);
      if (!isCell(s.field)) {
        elementRow(s.prores, p, s.field, ownedByElement(s));
        addInternalRows(md, s, coarse, coarseOffset, data, dataOffset);
      }
    } else if (hasCoarserNeighbor(s)) {
      int r = s.prores.add(BoundaryOp.RESTRICT, ndim, coarse, coarseOffset, s.coarseBox, 0);
      fine(s.prores, r, s, data, dataOffset);
      if (!isCell(s.field)) {
        elementRow(s.prores, r, s.field, allOwned(s.field));
      }
      s.subsets[BvarsSubCache.RESTRICTION].add(r);
    }
  }

  /**
   * Adds the internal prolongation rows of a face, edge or node field's boundary with a coarser
   * neighbour (the scratch's current one): one per coarse element that has some field element
   * inside it (the cell only, for Toth and Roe's operator), its box the coarse cell box one
   * longer at the top where that element sits on cell boundaries, masked by the sender's
   * ownership of that element.
   */
  private static void addInternalRows(MeshData md, CacheBuildScratch s, BlockLayout coarse,
      int coarseOffset, BlockLayout data, int dataOffset) {
    MeshBlock block = s.meshBlock;
    int ndim = block.mesh().ndim();
    boolean toth = s.field.metadata().refinementOps().internal()
        == RefinementOps.InternalProlongation.TOTH_AND_ROE;
    List<TopologicalElement> elements = s.field.metadata().elements();
    for (TopologicalElement cel : TopologicalElement.FILL_ORDER) {
      if (toth ? cel != TopologicalElement.CC
          : !TopologicalElement.anyLiesIn(elements, cel, ndim)) {
        continue;
      }
      int[] top = {cel.offsetI(), cel.offsetJ(), cel.offsetK()};
      int[] box = s.cellBox.clone();
      for (int axis = 0; axis < 3; axis++) {
        box[2 * axis + 1] += block.region().isSymmetry(axis) ? 0 : top[axis];
      }
      int q = s.prores.add(toth ? BoundaryOp.INTERNAL_TOTH_AND_ROE : BoundaryOp.INTERNAL_AVERAGE,
          ndim, coarse, coarseOffset, box, 0);
      fine(s.prores, q, s, data, dataOffset);
      int[] owned = allOwned(s.field);
      Arrays.fill(owned, senderOwns(s, senderOwnership(s), cel));
      elementRow(s.prores, q, s.field, owned);
      s.prores.innerElement(q, code(cel));
      s.subsets[BvarsSubCache.INTERNAL_PROLONGATION].add(q);
    }
  }

  static void addFluxBoundary(MeshData md, CacheBuildScratch s, boolean sender,
      int bufferOffset) {
    int axis = faceAxis(s.nb);
    int ndim = s.meshBlock.mesh().ndim();
    int field = s.field.id();
    BlockLayout flux = fluxShape(md, s, field, axis + 1);
    int fluxOffset = fluxOffset(md, field, axis + 1, s.block);
    if (sender) {
      BoundaryIndices.calc(s.meshBlock, s.nb, isFine(s), BoundaryIndices.Range.SEND, true,
          axis + 1, s.box);
      int b = s.table.add(BoundaryOp.FLUX_X1 + axis, ndim, coarseShape(md, s, field),
          coarseOffset(md, field, s.block), s.box, bufferOffset);
      fine(s.table, b, s, flux, fluxOffset);
    } else {
      BoundaryIndices.calc(s.meshBlock, s.nb, isFine(s), BoundaryIndices.Range.RECEIVE, false,
          axis + 1, s.box);
      s.table.add(BoundaryOp.COPY, ndim, flux, fluxOffset, s.box, bufferOffset);
    }
  }

  /**
   * Sets the fine side of refinement entry {@code r}: the current block's own cells ({@code
   * fine} moved by {@code fineOffset}) and coordinates ({@link FineSide}).
   */
  static void fine(BoundaryTableBuilder t, int r, CacheBuildScratch s, BlockLayout fine,
      int fineOffset) {
    MeshBlock block = s.meshBlock;
    FineSide.place(t, r, block, isFine(s), block.mesh().nghost(), fine, fineOffset);
  }

  /** Whether the scratch's current block has a coarser neighbour: looked up once per block. */
  private static boolean hasCoarserNeighbor(CacheBuildScratch s) {
    if (s.coarserCheckedFor != s.meshBlock) {
      s.coarserCheckedFor = s.meshBlock;
      s.hasCoarserNeighbor = false;
      List<NeighborBlock> neighbors = s.meshBlock.neighbors();
      for (int n = 0; n < neighbors.size() && !s.hasCoarserNeighbor; n++) {
        s.hasCoarserNeighbor = neighbors.get(n).isCoarser();
      }
    }
    return s.hasCoarserNeighbor;
  }

  private static int faceAxis(NeighborBlock nb) {
    for (int axis = 0; axis < 3; axis++) {
      if (nb.element().offset(axis) != 0) {
        return axis;
      }
    }
    throw new IllegalArgumentException("flux correction needs a face neighbour: element="
        + nb.element());
  }
}
