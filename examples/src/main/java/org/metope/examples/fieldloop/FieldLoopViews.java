package org.metope.examples.fieldloop;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.view.FieldView;

/**
 * What the package's callbacks read on one partition, made once and kept by it ({@link
 * MeshData#keptView}), so that a warm step builds nothing: {@code B} with its edge fluxes and the
 * velocity {@code (vx, vy, vz)}.
 */
record FieldLoopViews(FieldView field, double[] velocity) {

  private FieldLoopViews(MeshData md) {
    this(FieldView.withFluxes(md, "B"), velocity(FieldLoopPackage.params(md)));
  }

  /** The views of partition {@code md}, which must have a block. */
  static FieldLoopViews of(MeshData md) {
    return md.keptView(FieldLoopViews.class, FieldLoopViews::new);
  }

  private static double[] velocity(Params p) {
    return new double[] {p.getDouble("vx"), p.getDouble("vy"), p.getDouble("vz")};
  }
}
