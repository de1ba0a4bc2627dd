package org.metope.mesh.view;

import java.util.List;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.input.DeckCheck;

/**
 * The checks every view makes when it is built, each failing with one sentence ({@link
 * SetupError}) that names the field, the block where one matters, and what to declare: a view is
 * built at set-up or once per launch, so a mistake stops the run there instead of reading offset
 * -1 (another field's values) in a kernel.
 */
final class ViewSetup {
  private ViewSetup() {}

  /** The field named {@code name}; an unknown name names the nearest declared one. */
  static FieldInfo field(ResolvedState state, String name) {
    if (state.hasField(name)) {
      return state.field(name);
    }
    String guess = DeckCheck.closest(name, state.names());
    throw new SetupError("no package declares field=" + name
        + (guess == null ? "" : " (did you mean " + guess + "?)")
        + "; declare it with StateDescriptor.addField (fields=" + state.names() + ")");
  }

  /** Throws unless {@code f} was declared with face fluxes. */
  static void requireFluxesDeclared(FieldInfo f) {
    if (!f.metadata().isSet(MetadataFlag.WITH_FLUXES)
        || f.metadata().topology() != MetadataFlag.CELL) {
      throw new SetupError("field=" + f.name() + " has no flux storage: declare it with"
          + " Metadata.CELL and Metadata.WITH_FLUXES in package " + f.packageName());
    }
  }

  /**
   * Throws unless {@code f} has fluxes of some kind: a cell field's face fluxes or a face field's
   * edge fluxes ({@link FieldView#withFluxes}).
   */
  static void requireAnyFluxesDeclared(FieldInfo f) {
    if (f.metadata().isSet(MetadataFlag.WITH_FLUXES)
        && f.metadata().topology() == MetadataFlag.FACE) {
      return;
    }
    requireFluxesDeclared(f);
  }

  /** Throws unless the mesh of {@code md} has fluxes through {@code direction} faces. */
  static void requireDirection(MeshData md, FieldInfo f, int direction) {
    int dims = md.layout().fluxDirections();
    if (direction < 1 || direction > dims) {
      throw new SetupError("field=" + f.name() + " has no fluxes through direction="
          + direction + ": the mesh has " + dims + " dimension" + (dims == 1 ? "" : "s")
          + " (directions 1.." + dims + ")");
    }
  }

  /** Throws when field {@code f} has no storage on partition block {@code b}. */
  static void requireAllocated(MeshData md, FieldInfo f, int b) {
    if (!md.isAllocated(f.id(), b)) {
      throw new SetupError("field=" + f.name() + " is not allocated on block=" + blockName(md, b)
          + ": allocate it first (FieldStorage.allocateSparse), or view it with FieldView.sparse"
          + " or a VariablePack, which mark unallocated blocks");
    }
  }

  /** The block's gid, or its rank-local index for storage built without mesh blocks. */
  static String blockName(MeshData md, int b) {
    return md.storage().hasBlocks() ? Integer.toString(md.block(b).gid())
        : "index " + md.blockIndex(b);
  }

  /** Partition block offsets of {@code instance}, -1 where unallocated. */
  static int[] offsets(MeshData md, int instance) {
    ArenaLayout layout = md.layout();
    int[] offsets = new int[md.numBlocks()];
    for (int b = 0; b < offsets.length; b++) {
      offsets[b] = layout.offset(instance, md.blockIndex(b));
    }
    return offsets;
  }

  /**
   * Throws when two fields of one view have different extents (so different strides) or
   * different topological elements.
   */
  static void requireSameExtents(MeshData md, List<FieldInfo> fields) {
    ArenaLayout layout = md.layout();
    FieldInfo head = fields.get(0);
    int first = layout.dataInstance(head.id(), md.container());
    for (FieldInfo f : fields) {
      int inst = layout.dataInstance(f.id(), md.container());
      if (!f.metadata().elements().equals(head.metadata().elements())) {
        throw new SetupError("field=" + f.name() + " lives on " + f.metadata().elements()
            + " and field=" + head.name() + " on " + head.metadata().elements()
            + ": one pack holds fields of one topology");
      }
      if (layout.ni(inst) != layout.ni(first) || layout.nj(inst) != layout.nj(first)
          || layout.nk(inst) != layout.nk(first)) {
        throw new SetupError("field=" + f.name() + " has extents " + layout.nk(inst) + "x"
            + layout.nj(inst) + "x" + layout.ni(inst) + " and field=" + fields.get(0).name()
            + " " + layout.nk(first) + "x" + layout.nj(first) + "x" + layout.ni(first)
            + ": one pack holds fields of one topology");
      }
    }
  }
}
