package org.metope.examples.advection;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.field.BooleanParam;
import org.metope.mesh.field.DoubleParam;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FlatRange;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.PackDescriptor;
import org.metope.mesh.view.ParFor;
import org.metope.mesh.view.VariablePack;

/**
 * Donor-cell upwind fluxes of every field with fluxes (Parthenon's {@code CalculateFluxes} with
 * {@code DonorCellX1..X3}): on the face below cell {@code i} the left state is cell {@code i - 1}
 * and the right state cell {@code i}, and the flux is {@code left * vx} when {@code vx > 0}, else
 * {@code right * vx}. Faces covered: x1 faces {@code is .. ie + 1} of interior rows, x2 faces
 * {@code js .. je + 1} in 2D and 3D, x3 faces {@code ks .. ke + 1} in 3D.
 *
 * <p>With {@code v_const = false} the velocity is the cell field {@code v}, and the flux through a
 * face is {@code (vl > 0 ? ql vl : 0) + (vr < 0 ? qr vr : 0)} with {@code vl}, {@code vr} the left
 * and right values of the velocity component normal to the face.
 *
 * <p>Written on views: one {@link VariablePack} of the advected fields, resolved at set-up, and
 * a {@link ParFor} loop per component and direction over the faces, with the multiplications of
 * Parthenon's code. With constant velocity every access is a shift of the face's cell number, so
 * that loop runs over whole k planes ({@link ParFor#flat} on a {@link FlatRange}) as a
 * hand-written kernel on the arena would; the faces of ghost columns between rows get values too,
 * which nobody reads (the divergence and flux correction read interior faces only).
 */
public final class AdvectionFluxes implements FluxFunction {
  private final BooleanParam vConst;
  private final DoubleParam[] velocity;
  private final int numVars;
  /** The advected fields with their fluxes, set by {@link #resolve} at set-up. */
  private volatile PackDescriptor fields;

  /**
   * The kernel of the package whose parameters are {@code params}, called at set-up.
   *
   * @throws SetupError for a missing parameter
   */
  public AdvectionFluxes(Params params) {
    this.vConst = params.booleanHandle("v_const");
    this.velocity = new DoubleParam[] {params.doubleHandle("vx"), params.doubleHandle("vy"),
        params.doubleHandle("vz")};
    this.numVars = params.intHandle("num_vars").get();
  }

  /**
   * Resolves the fields the kernel computes fluxes of: {@code num_vars} advected fields, and
   * {@code v} unless {@code v_const}. The mesh calls it when it resolves the packages, so that a
   * field declared without {@code WITH_FLUXES} (which would otherwise never change) stops the run
   * at set-up.
   *
   * @throws SetupError for a missing field or one without flux storage
   */
  @Override
  public void resolve(ResolvedState state) {
    List<String> names = new ArrayList<>();
    for (int var = 0; var < numVars; var++) {
      names.add(AdvectionPackage.advectedName(var));
    }
    if (!vConst.get()) {
      names.add("v");
    }
    fields = PackDescriptor.of(state, names.toArray(new String[0])).withFluxes();
  }

  /**
   * Computes the fluxes of the advected fields on every block of {@code md}; {@code fieldIds},
   * the driver's selection of the package's fields with fluxes, are the same fields, which the
   * kernel resolved by name.
   *
   * @throws IllegalStateException when the kernel was never resolved (not run through a mesh)
   */
  @Override
  public void calculateFluxes(MeshData md, int[] fieldIds) {
    if (md.numBlocks() == 0) {
      return;
    }
    if (fields == null) {
      throw new IllegalStateException("advection fluxes were not resolved: Mesh.initializeFields"
          + " resolves the packages' flux functions");
    }
    VariablePack q = fields.pack(md);
    FieldView v = vConst.get() ? null : FieldView.of(md, "v");
    IndexShape cells = md.block(0).cellBounds();
    int ndim = md.layout().fluxDirections();
    for (int dir = 1; dir <= ndim; dir++) {
      IndexBox faces = IndexBox.of(cells, IndexDomain.INTERIOR).expand(dir, 0, 1);
      for (int n = 0; n < q.numVars(); n++) {
        if (v == null) {
          constantVelocity(md, q, n, dir, q.flatRange(faces), velocity[dir - 1].get());
        } else {
          fieldVelocity(md, q, v, n, dir, faces);
        }
      }
    }
  }

  /**
   * Upwind: the donor is the cell below the face for positive velocity, the cell above else. A
   * stream over shifts of one cell number, so it runs on flat ranges (the faces of ghost columns
   * between rows get values too, which nobody reads).
   */
  private static void constantVelocity(MeshData md, VariablePack q, int n, int dir,
      FlatRange faces, double vel) {
    final int donor = vel > 0.0 ? q.stride(dir) : 0;
    ParFor.flat(md, faces, (b, c) -> q.setFluxFlat(b, dir, n, c, q.getFlat(b, n, c - donor) * vel));
  }

  /**
   * Face by face over the box: on flat ranges this kernel ran either faster than the hand-written
   * one or 1.3 to 1.7 times slower, from one JVM to the next, as the JIT chose conditional moves
   * or branches for its two upwind tests (docs/PERFORMANCE.md, "Views").
   */
  private static void fieldVelocity(MeshData md, VariablePack q, FieldView v, int n, int dir,
      IndexBox faces) {
    final int di = dir == 1 ? 1 : 0;
    final int dj = dir == 2 ? 1 : 0;
    final int dk = dir == 3 ? 1 : 0;
    final int normal = dir - 1;
    ParFor.cells(md, faces, (b, k, j, i) -> {
      double vl = v.get(b, normal, k - dk, j - dj, i - di);
      double vr = v.get(b, normal, k, j, i);
      double f = vl > 0.0 ? q.get(b, n, k - dk, j - dj, i - di) * vl : 0.0;
      f += vr < 0.0 ? q.get(b, n, k, j, i) * vr : 0.0;
      q.setFlux(b, dir, n, k, j, i, f);
    });
  }
}
