package ${package};

import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * A physics package: heat {@code u} diffusing with diffusivity {@code kappa}, {@code du/dt =
 * kappa laplacian(u)}, from a Gaussian {@code amplitude exp(-r^2 / (2 width^2))} at the centre
 * of the domain. It declares its deck keys, its field with fluxes, its flux function, its time
 * step and a history output; the flux driver does the rest.
 *
 * <p>{@code <my_package>} keys (defaults): {@code kappa} (1.0), {@code cfl} (0.8, the fraction
 * of the explicit stability limit), {@code amplitude} (1.0), {@code width} (0.05).
 */
public final class MyPackage {
  /** The package label and its deck block. */
  public static final String NAME = "my_package";

  private MyPackage() {}

  /** Reads {@code <my_package>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("kappa", positive(pin, "kappa", 1.0));
    pkg.addParam("cfl", positive(pin, "cfl", 0.8));
    pkg.addParam("amplitude", pin.getOrAddReal(NAME, "amplitude", 1.0));
    pkg.addParam("width", positive(pin, "width", 0.05));
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST).build());
    pkg.setCalculateFluxes(MyPackage::calculateFluxes);
    pkg.setEstimateTimestepBlock(MyPackage::estimateTimestep);
    pkg.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.SUM, "total_u",
        MyPackage::total));
    return pkg;
  }

  private static double positive(ParameterInput pin, String key, double def) {
    double value = pin.getOrAddReal(NAME, key, def);
    if (!(value > 0.0)) {
      throw pin.error(NAME, key, "a positive number");
    }
    return value;
  }

  private static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(NAME).params();
  }

  /**
   * Fick's law on every face of the interior cells: {@code -kappa (u_i - u_(i-1)) / dx} on the
   * face below cell {@code i}, which has the cell's index in the face array.
   */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    double kappa = params(md).getDouble("kappa");
    int ndim = md.block(0).mesh().config().ndim();
    double[] a = md.data();
    for (int f : fields) {
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        int q = md.dataOffset(f, b);
        for (int dir = 1; dir <= ndim; dir++) {
          int flux = md.fluxOffset(f, dir, b);
          double dx = md.block(b).coords().dx(dir - 1);
          // The distance in the array from a cell to its lower neighbour along dir.
          int shift = md.index(f, b, 0, dir == 3 ? 1 : 0, dir == 2 ? 1 : 0, dir == 1 ? 1 : 0)
              - md.index(f, b, 0, 0, 0, 0);
          for (int k = start(cells, 2); k <= end(cells, 2) + (dir == 3 ? 1 : 0); k++) {
            for (int j = start(cells, 1); j <= end(cells, 1) + (dir == 2 ? 1 : 0); j++) {
              for (int i = start(cells, 0); i <= end(cells, 0) + (dir == 1 ? 1 : 0); i++) {
                int n = md.index(f, b, 0, k, j, i) - q;
                a[flux + n] = -kappa * (a[q + n] - a[q + n - shift]) / dx;
              }
            }
          }
        }
      }
    }
  }

  /** The explicit limit {@code cfl / (2 kappa sum 1/dx^2)} on block {@code b}. */
  static double estimateTimestep(MeshData md, int b) {
    UniformCartesian x = md.block(b).coords();
    double inverse = 0.0;
    for (int axis = 0; axis < md.block(b).mesh().config().ndim(); axis++) {
      inverse += 1.0 / (x.dx(axis) * x.dx(axis));
    }
    return params(md).getDouble("cfl") / (2.0 * params(md).getDouble("kappa") * inverse);
  }

  /** The integral of {@code u} over block {@code b}. */
  static double total(MeshData md, int b) {
    int u = md.state().fieldId("u");
    IndexShape cells = md.block(b).cellBounds();
    double sum = 0.0;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          sum += md.data()[md.index(u, b, 0, k, j, i)];
        }
      }
    }
    return sum * md.block(b).coords().cellVolume();
  }

  /** The problem generator: the Gaussian on the interior of block {@code b}. */
  static void generate(MeshData md, int b) {
    Params p = params(md);
    double amplitude = p.getDouble("amplitude");
    double width = p.getDouble("width");
    MeshConfiguration config = md.block(b).mesh().config();
    int u = md.state().fieldId("u");
    UniformCartesian x = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          double r2 = 0.0;
          for (int axis = 0; axis < config.ndim(); axis++) {
            double centre = 0.5 * (config.meshSize().xmin(axis) + config.meshSize().xmax(axis));
            double d = x.xc(axis, axis == 0 ? i : axis == 1 ? j : k) - centre;
            r2 += d * d;
          }
          md.data()[md.index(u, b, 0, k, j, i)] =
              amplitude * Math.exp(-r2 / (2.0 * width * width));
        }
      }
    }
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
