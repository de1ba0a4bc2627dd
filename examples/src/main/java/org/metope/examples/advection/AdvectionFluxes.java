package org.metope.examples.advection;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.BooleanParam;
import org.metope.mesh.field.DoubleParam;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.DeviceKernel;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FlatRange;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.PackDescriptor;
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
 * <p>On the host, offsets come from one {@link VariablePack} of the advected fields, resolved at
 * set-up; the loops ({@link #donorCellRun}, {@link #donorCellFieldRow}) have the multiplications
 * of Parthenon's code, per component, direction, block and k plane (constant velocity: every
 * access is a shift of the face's cell number, so a plane is one run the JIT vectorises, and the
 * faces of ghost columns between rows get values too, which nobody reads; the divergence and flux
 * correction read interior faces only) or row (velocity field). On a device-resident backend
 * ({@link #fluxLaunches}) the same arithmetic runs as the package's face kernels, one per
 * direction, whose bodies {@link #constantFace} and {@link #fieldFace} name cells through views:
 * the same products of the same values, so the same bits on every interior face.
 */
public final class AdvectionFluxes implements FluxFunction {
  private final BooleanParam vConst;
  private final DoubleParam[] velocity;
  private final int numVars;
  /** The advected fields with their fluxes, set by {@link #resolve} at set-up. */
  private volatile PackDescriptor fields;
  /** Per direction 1..3, the device form of the fluxes, made by {@link #resolve}. */
  private final DeviceKernel[] kernels = new DeviceKernel[4];
  /** A block's real of a constant-velocity face kernel: the velocity along its direction. */
  private static final int VELOCITY = 0;
  /** A block's real of a velocity-field face kernel: the pack index of the normal velocity. */
  private static final int NORMAL = 0;

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
    for (int dir = 1; dir <= 3; dir++) {
      final DoubleParam vel = velocity[dir - 1];
      final int axis = dir - 1;
      // v, the pack's last field, has one component per axis
      kernels[dir] = vConst.get()
          ? DeviceKernel.faces(AdvectionFluxes::constantFace, fields, dir, 1,
              (md, b, n) -> vel.get())
          : DeviceKernel.faces(AdvectionFluxes::fieldFace, fields, dir, 1, (md, b, n) -> {
            VariablePack q = fields.pack(md);
            return q.lowerBound(q.numFields() - 1) + axis;
          });
    }
  }

  /**
   * The donor-cell fluxes of every component through the lower face of cell {@code (k, j, i)}
   * with the block's constant velocity along the kernel's direction: the cell below the face for
   * a positive velocity, the cell itself else. The body of the constant-velocity face kernels.
   */
  static void constantFace(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    final double vel = DevicePack.real(r, rat, VELOCITY);
    for (int n = 0; n < DevicePack.numVars(t, at); n++) {
      final double donor = vel > 0.0 ? DevicePack.below(a, t, at, n, k, j, i)
          : DevicePack.get(a, t, at, n, k, j, i);
      DevicePack.setFlux(a, t, at, n, k, j, i, donor * vel);
    }
  }

  /**
   * The donor-cell fluxes of every component through the lower face of cell {@code (k, j, i)}
   * with the velocity field: {@code (vl > 0 ? ql vl : 0) + (vr < 0 ? qr vr : 0)}, {@code vl} and
   * {@code vr} the normal velocity below and above the face. The body of the velocity-field face
   * kernels.
   */
  static void fieldFace(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    final int normal = (int) DevicePack.real(r, rat, NORMAL);
    final double vl = DevicePack.below(a, t, at, normal, k, j, i);
    final double vr = DevicePack.get(a, t, at, normal, k, j, i);
    for (int n = 0; n < DevicePack.numVars(t, at); n++) {
      double f = vl > 0.0 ? DevicePack.below(a, t, at, n, k, j, i) * vl : 0.0;
      f += vr < 0.0 ? DevicePack.get(a, t, at, n, k, j, i) * vr : 0.0;
      DevicePack.setFlux(a, t, at, n, k, j, i, f);
    }
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
    Faces faces = faces(md, q);
    for (int dir = 1; dir <= faces.boxes().length; dir++) {
      for (int n = 0; n < q.numVars(); n++) {
        if (v == null) {
          constantVelocity(md, q, n, dir, faces.ranges()[dir - 1], velocity[dir - 1].get());
        } else {
          fieldVelocity(md, q, v, n, dir, faces.boxes()[dir - 1]);
        }
      }
    }
  }

  /** Each direction's interior faces, as a box and as a flat range of {@code pack}. */
  private record Faces(VariablePack pack, IndexBox[] boxes, FlatRange[] ranges) {}

  /**
   * The faces of partition {@code md}'s blocks, kept by the partition with the pack they were
   * made for, so that a warm launch makes none.
   */
  private Faces faces(MeshData md, VariablePack q) {
    if (md.keptView(this) instanceof Faces kept && kept.pack() == q) {
      return kept;
    }
    IndexShape cells = md.block(0).cellBounds();
    int ndim = md.layout().fluxDirections();
    IndexBox[] boxes = new IndexBox[ndim];
    FlatRange[] ranges = new FlatRange[ndim];
    for (int dir = 1; dir <= ndim; dir++) {
      boxes[dir - 1] = IndexBox.of(cells, IndexDomain.INTERIOR).expand(dir, 0, 1);
      ranges[dir - 1] = q.flatRange(boxes[dir - 1]);
    }
    Faces faces = new Faces(q, boxes, ranges);
    md.keepView(this, faces);
    return faces;
  }

  /**
   * Upwind: the donor is the cell below the face for positive velocity, the cell above else. A
   * stream over shifts of one cell number, so it runs on the flat range of each k plane (the
   * faces of ghost columns between rows get values too, which nobody reads), with {@link
   * #donorCellRun}.
   */
  private static void constantVelocity(MeshData md, VariablePack q, int n, int dir,
      FlatRange faces, double vel) {
    final double[] a = md.data();
    final int donor = vel > 0.0 ? q.stride(dir) : 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      final int flux = q.fluxIndex(b, dir, n, 0, 0, 0) + faces.first();
      final int cell = q.index(b, n, 0, 0, 0) + faces.first();
      for (int k = faces.ks(); k <= faces.ke(); k++) {
        final int plane = k * faces.kStride();
        donorCellRun(a, flux + plane, cell + plane, donor, vel, faces.length());
      }
    }
  }

  /** Row by row over the box, with {@link #donorCellFieldRow}. */
  private static void fieldVelocity(MeshData md, VariablePack q, FieldView v, int n, int dir,
      IndexBox faces) {
    final double[] a = md.data();
    final int shift = q.stride(dir);
    final int js = q.stride(2);
    final int ks = q.stride(3);
    for (int b = 0; b < md.numBlocks(); b++) {
      final int flux = q.fluxIndex(b, dir, n, 0, 0, 0);
      final int cell = q.index(b, n, 0, 0, 0);
      final int vel = v.index(b, dir - 1, 0, 0, 0);
      for (int k = faces.k().s(); k <= faces.k().e(); k++) {
        for (int j = faces.j().s(); j <= faces.j().e(); j++) {
          final int row = k * ks + j * js;
          donorCellFieldRow(a, flux + row, cell + row, vel + row, shift,
              faces.i().s(), faces.i().e());
        }
      }
    }
  }

  /**
   * Donor-cell flux with constant velocity {@code vel} over {@code length} consecutive faces:
   * {@code a[flux + c] = a[q + c - donor] * vel}, where {@code donor} is the cell stride along the
   * face normal when {@code vel > 0} (the cell below the face) and 0 otherwise.
   */
  private static void donorCellRun(double[] a, int flux, int q, int donor, double vel,
      int length) {
    for (int c = 0; c < length; c++) {
      a[flux + c] = a[q + c - donor] * vel;
    }
  }

  /**
   * Donor-cell flux with a velocity field over faces {@code is..ie} of one row: with {@code vl},
   * {@code vr} the normal velocity of the cells below and above the face ({@code shift} apart),
   * {@code f = (vl > 0 ? ql vl : 0) + (vr < 0 ? qr vr : 0)}.
   */
  private static void donorCellFieldRow(double[] a, int flux, int q, int v, int shift, int is,
      int ie) {
    for (int i = is; i <= ie; i++) {
      final double vl = a[v + i - shift];
      final double vr = a[v + i];
      double f = vl > 0.0 ? a[q + i - shift] * vl : 0.0;
      f += vr < 0.0 ? a[q + i] * vr : 0.0;
      a[flux + i] = f;
    }
  }

  /** The same fluxes as launches: the face kernel of each active direction. */
  @Override
  public List<StageLaunch> fluxLaunches(MeshData md, int[] fieldIds) {
    List<StageLaunch> launches = new ArrayList<>();
    for (int dir = 1; md.numBlocks() > 0 && dir <= md.layout().fluxDirections(); dir++) {
      launches.add(kernels[dir].launch(md));
    }
    return launches;
  }
}
