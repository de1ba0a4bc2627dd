package org.metope.examples.diffusion;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.view.DeviceKernel;
import org.metope.mesh.view.PackDescriptor;

/**
 * The diffusion package's flux function (Parthenon's {@code CalculateFluxes}): on every face of
 * the interior cells, Fick's law with a centred difference ({@link HeatEquation#faceFlux}). The
 * flux through the face below cell {@code i} along an axis sits between cells {@code i - 1} and
 * {@code i}, so an axis has faces {@code start .. end + 1}. Written once, as the body {@link
 * #face} of one {@link DeviceKernel} per direction: the host runs it ({@link #calculateFluxes}),
 * and a device-resident backend gets it as launches ({@link #fluxLaunches}).
 */
final class DiffusionFluxes implements FluxFunction {
  /** The reals of a block: the diffusivity and the cell width along the kernel's direction. */
  private static final int KAPPA = 0;
  private static final int DX = 1;

  /** Per direction 1..3, made when the mesh resolves the packages. */
  private final DeviceKernel[] kernels = new DeviceKernel[4];

  /**
   * The flux through the lower face of cell {@code (k, j, i)} along the kernel's direction: the
   * body of the package's kernel, on the host and on a device.
   */
  static void face(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    DevicePack.setFlux(a, t, at, 0, k, j, i, HeatEquation.faceFlux(
        DevicePack.real(r, rat, KAPPA), DevicePack.below(a, t, at, 0, k, j, i),
        DevicePack.get(a, t, at, 0, k, j, i), DevicePack.real(r, rat, DX)));
  }

  @Override
  public void resolve(ResolvedState state) {
    PackDescriptor u = PackDescriptor.of(state, "u").withFluxes();
    for (int dir = 1; dir <= 3; dir++) {
      final int axis = dir - 1;
      kernels[dir] = DeviceKernel.faces(DiffusionFluxes::face, u, dir, 2, (md, b, n) ->
          n == KAPPA ? DiffusionPackage.params(md).getDouble("kappa")
              : md.block(b).coords().dx(axis));
    }
  }

  /** Fills the fluxes of {@code u} on every block of {@code md}. */
  @Override
  public void calculateFluxes(MeshData md, int[] fields) {
    for (int dir = 1; dir <= ndim(md); dir++) {
      kernels[dir].run(md);
    }
  }

  @Override
  public List<StageLaunch> fluxLaunches(MeshData md, int[] fields) {
    List<StageLaunch> launches = new ArrayList<>();
    for (int dir = 1; dir <= ndim(md); dir++) {
      launches.add(kernels[dir].launch(md));
    }
    return launches;
  }

  private static int ndim(MeshData md) {
    return md.numBlocks() == 0 ? 0 : md.block(0).mesh().config().ndim();
  }
}
