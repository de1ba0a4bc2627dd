package org.metope.bvals;

import java.util.Arrays;
import java.util.List;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.forest.BlockOwnership;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * What a face, edge or node field's boundary row says about its elements: their codes ({@link
 * BoundaryTable#ELEMENT_0}) and, per element, the box values the receiver takes, those the sender
 * owns on a shared face, edge or corner (Parthenon's ownership masks, {@link BlockOwnership}).
 */
final class ElementRows {
  private ElementRows() {}

  /**
   * Which box cells a receiver writes, per element of a face, edge or node field: those the
   * sender owns on a shared face, edge or corner (Parthenon's ownership mask), all others.
   */
  static int[] ownedByElement(CacheBuildScratch bd) {
    List<TopologicalElement> elements = bd.field.metadata().elements();
    int[] owned = new int[elements.size()];
    int ownership = senderOwnership(bd);
    for (int e = 0; e < owned.length; e++) {
      owned[e] = senderOwns(bd, ownership, elements.get(e))
          & BlockOwnership.withinElement(elements.get(e), active(bd.meshBlock));
    }
    return owned;
  }

  /** The parts of its boundary that the sender of {@code bd}'s current boundary owns. */
  static int senderOwnership(CacheBuildScratch bd) {
    LogicalLocation sender = bd.nb.loc();
    return BlockOwnership.of(sender, bd.meshBlock.mesh().forest().findNeighbors(sender),
        bd.newlyRefined);
  }

  /**
   * The box cells of element {@code el} whose values the sender of {@code bd}'s current boundary
   * owns, given its {@code ownership} (Parthenon's {@code GetIndexRangeMaskFromOwnership} as
   * {@code CalcIndices} calls it). From a coarser sender the box lies at one corner of the sender's part, never across a whole
   * face or edge: along an axis with no offset, the box's end away from the block's place in its
   * parent is deep in the sender.
   */
  static int senderOwns(CacheBuildScratch bd, int ownership, TopologicalElement el) {
    int[] ox = new int[3];
    for (int axis = 0; axis < 3; axis++) {
      ox[axis] = -bd.nb.element().offset(axis);
      if (ox[axis] == 0 && bd.nb.isCoarser()) {
        ox[axis] = (bd.meshBlock.loc().l(axis) & 1L) == 1L ? 1 : -1;
      }
    }
    return BlockOwnership.elementMask(el, ownership, ox[0], ox[1], ox[2]);
  }

  /** The element codes of a face, edge or node field's planes ({@link BoundaryTable#ELEMENT_0}). */
  private static int[] elementCodes(FieldInfo field) {
    List<TopologicalElement> elements = field.metadata().elements();
    int[] codes = new int[elements.size()];
    for (int e = 0; e < codes.length; e++) {
      codes[e] = code(elements.get(e));
    }
    return codes;
  }

  static int code(TopologicalElement el) {
    return BoundaryTable.elementCode(el.offsetI(), el.offsetJ(), el.offsetK());
  }

  /**
   * Marks refinement row {@code r} as one of a face, edge or node field: its planes are the
   * field's elements, with {@code owned} masks (restriction ignores them).
   */
  static void elementRow(BoundaryTableBuilder t, int r, FieldInfo field, int[] owned) {
    t.elements(r, field.numComponents(), owned);
    t.elementCodes(r, elementCodes(field));
  }

  static int[] allOwned(FieldInfo field) {
    int[] owned = new int[field.metadata().elements().size()];
    Arrays.fill(owned, BoundaryTable.OWNED_ALL);
    return owned;
  }

  static boolean[] active(MeshBlock block) {
    boolean[] active = new boolean[3];
    for (int axis = 0; axis < 3; axis++) {
      active[axis] = !block.region().isSymmetry(axis);
    }
    return active;
  }
}
