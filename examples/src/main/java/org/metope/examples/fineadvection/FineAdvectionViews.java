package org.metope.examples.fineadvection;

import org.metope.examples.fineadvection.FineAdvectionFluxes.EdgeStencil;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.view.FieldView;

/**
 * What the package's callbacks read on one partition, made once and kept by it ({@link
 * MeshData#keptView}), so that a warm step builds nothing: the fields (those with fluxes, with
 * their fluxes), the velocity {@code (vx, vy, vz)} and the stencil of each edge direction.
 */
record FineAdvectionViews(FieldView phi, FieldView phiFine, FieldView phiFineRestricted,
    FieldView c, FieldView d, FieldView cCc, FieldView dCc, FieldView divC, FieldView divD,
    double[] velocity, EdgeStencil[] edges) {

  private FineAdvectionViews(MeshData md) {
    this(FieldView.withFluxes(md, FineAdvectionPackage.PHI),
        FieldView.withFluxes(md, FineAdvectionPackage.PHI_FINE),
        FieldView.of(md, FineAdvectionPackage.PHI_FINE_RESTRICTED),
        FieldView.withFluxes(md, FineAdvectionPackage.C),
        FieldView.withFluxes(md, FineAdvectionPackage.D),
        FieldView.of(md, FineAdvectionPackage.C_CC), FieldView.of(md, FineAdvectionPackage.D_CC),
        FieldView.of(md, FineAdvectionPackage.DIV_C), FieldView.of(md, FineAdvectionPackage.DIV_D),
        velocity(FineAdvectionPackage.params(md)), EdgeStencil.all(md.block(0).cellBounds()));
  }

  /** The views of partition {@code md}, which must have a block. */
  static FineAdvectionViews of(MeshData md) {
    return md.keptView(FineAdvectionViews.class, FineAdvectionViews::new);
  }

  private static double[] velocity(Params p) {
    return new double[] {p.getDouble("vx"), p.getDouble("vy"), p.getDouble("vz")};
  }
}
