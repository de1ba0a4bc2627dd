package org.metope.examples.diffusion;

import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * The diffusion example's initial state and its exact later states: a Gaussian of the package's
 * {@code amplitude} and {@code width} centred in the domain, spreading as {@link
 * HeatEquation#gaussian} says. On a periodic domain the exact solution also has the Gaussians of
 * the periodic images; they are left out, which is exact to rounding while the Gaussian is narrow
 * against the domain (at 6 standard deviations from the edge, below 1e-15 of the peak).
 */
public final class GaussianProfile {
  private final double amplitude;
  private final double width;
  private final double kappa;

  /** The profile of the diffusion package's parameters. */
  public GaussianProfile(Params params) {
    this.amplitude = params.getDouble("amplitude");
    this.width = params.getDouble("width");
    this.kappa = params.getDouble("kappa");
  }

  /** The problem generator: sets {@code u} on the interior of block {@code b} of {@code md}. */
  public void generate(MeshData md, int b) {
    fill(md, b, 0.0);
  }

  /** Writes the exact solution at time {@code t} into {@code u} on block {@code b}'s interior. */
  public void fill(MeshData md, int b, double t) {
    int u = md.state().fieldId("u");
    MeshConfiguration config = md.block(b).mesh().config();
    int ndim = config.ndim();
    UniformCartesian x = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    double[] a = md.data();
    for (int k = DiffusionPackage.start(cells, 2); k <= DiffusionPackage.end(cells, 2); k++) {
      for (int j = DiffusionPackage.start(cells, 1); j <= DiffusionPackage.end(cells, 1); j++) {
        for (int i = DiffusionPackage.start(cells, 0); i <= DiffusionPackage.end(cells, 0); i++) {
          double r2 = offset2(config, 0, x.x1c(i));
          if (ndim > 1) {
            r2 += offset2(config, 1, x.x2c(j));
          }
          if (ndim > 2) {
            r2 += offset2(config, 2, x.x3c(k));
          }
          a[md.index(u, b, 0, k, j, i)] = HeatEquation.gaussian(amplitude, width, kappa, ndim,
              t, r2);
        }
      }
    }
  }

  /** The squared distance of {@code x} from the domain's centre along {@code axis}. */
  private static double offset2(MeshConfiguration config, int axis, double x) {
    double d = x - 0.5 * (config.meshSize().xmin(axis) + config.meshSize().xmax(axis));
    return d * d;
  }
}
