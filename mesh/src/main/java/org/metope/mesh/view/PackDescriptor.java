package org.metope.mesh.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;

/**
 * Which fields a {@link VariablePack} holds, resolved once at set-up (Parthenon's {@code
 * PackDescriptor}, made by {@code MakePackDescriptor}): by name, where the base name of a sparse
 * pool stands for every field of the pool, or by metadata flags. Building the descriptor is where
 * mistakes stop the run, with one sentence: an unknown name (with the nearest declared one), or,
 * {@link #withFluxes}, a field declared without {@code WITH_FLUXES}. {@link #pack} then makes the
 * view of a partition, which the partition keeps while its allocation is unchanged.
 */
public final class PackDescriptor {
  private final List<FieldInfo> fields;
  private final boolean fluxes;

  private PackDescriptor(List<FieldInfo> fields, boolean fluxes) {
    this.fields = List.copyOf(fields);
    this.fluxes = fluxes;
  }

  /**
   * The fields named {@code names}, in that order; a sparse pool's base name adds every field of
   * the pool, ids ascending.
   *
   * @throws org.metope.mesh.field.SetupError when a name is neither a field nor a sparse pool
   */
  public static PackDescriptor of(ResolvedState state, String... names) {
    List<FieldInfo> fields = new ArrayList<>();
    for (String name : names) {
      List<FieldInfo> pool = state.hasField(name) ? List.of() : state.sparseFields(name);
      if (pool.isEmpty()) {
        fields.add(ViewSetup.field(state, name));
      } else {
        fields.addAll(pool);
      }
    }
    return new PackDescriptor(fields, false);
  }

  /** Every field that has all of {@code flags}, in id order (may be none). */
  public static PackDescriptor withFlags(ResolvedState state, MetadataFlag... flags) {
    return new PackDescriptor(state.fieldsWith(flags), false);
  }

  /**
   * The same fields with their face fluxes.
   *
   * @throws org.metope.mesh.field.SetupError when a field was declared without {@code WITH_FLUXES}
   */
  public PackDescriptor withFluxes() {
    for (FieldInfo f : fields) {
      ViewSetup.requireFluxesDeclared(f);
    }
    return new PackDescriptor(fields, true);
  }

  /**
   * The pack of these fields on partition {@code md}. The partition keeps it, so a later call
   * returns the same pack, without building or allocating, until an allocation change (a sparse
   * field allocated or freed, the arena grown) makes its offsets stale; fetch it once per launch.
   */
  public VariablePack pack(MeshData md) {
    if (md.keptView(this) instanceof VariablePack kept && kept.isCurrent(md)) {
      return kept;
    }
    if (!fields.isEmpty()) {
      ViewSetup.requireSameExtents(md, fields);
    }
    VariablePack pack = new VariablePack(md, fields, fluxes);
    md.keepView(this, pack);
    return pack;
  }

  /** The fields, in pack order. */
  public List<FieldInfo> fields() {
    return fields;
  }

  /** The fields' ids, in pack order. */
  public int[] fieldIds() {
    int[] ids = new int[fields.size()];
    for (int f = 0; f < ids.length; f++) {
      ids[f] = fields.get(f).id();
    }
    return ids;
  }

  @Override
  public String toString() {
    return "PackDescriptor" + Arrays.toString(fields.stream().map(FieldInfo::name).toArray())
        + (fluxes ? " with fluxes" : "");
  }
}
