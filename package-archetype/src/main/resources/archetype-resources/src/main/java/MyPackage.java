package ${package};

import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FluxView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParFor;

/**
 * A physics package: heat {@code u} diffusing with diffusivity {@code kappa}, {@code du/dt =
 * kappa laplacian(u)}, from a Gaussian {@code amplitude exp(-r^2 / (2 width^2))} at the centre
 * of the domain. It declares its deck keys, its field with fluxes, its flux function, its time
 * step and a history output; the flux driver does the rest. Its loops read and write {@code u}
 * through views ({@code org.metope.mesh.view}), never through arena offsets.
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
   * Fick's law on every face of the interior cells, written on views: {@code u(b, 0, k, j, i)}
   * and its fluxes per direction, where the face below cell {@code i} has the cell's index; the
   * faces along {@code dir} are the interior and one more above.
   */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    double kappa = params(md).getDouble("kappa");
    int ndim = md.block(0).mesh().config().ndim();
    FieldView u = FieldView.withFluxes(md, "u");
    for (int dir = 1; dir <= ndim; dir++) {
      FluxView flux = u.fluxes(dir);
      IndexBox faces = interior(md).expand(dir, 0, 1);
      // The lower neighbour along dir is (k - dk, j - dj, i - di).
      int di = dir == 1 ? 1 : 0;
      int dj = dir == 2 ? 1 : 0;
      int dk = dir == 3 ? 1 : 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        double dx = md.block(b).coords().dx(dir - 1);
        ParFor.cells(b, b, faces, (bb, k, j, i) -> flux.set(bb, 0, k, j, i,
            -kappa * (u.get(bb, 0, k, j, i) - u.get(bb, 0, k - dk, j - dj, i - di)) / dx));
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
    BlockView u = BlockView.of(md, "u", b);
    IndexBox cells = interior(md);
    double sum = 0.0;
    for (int k = cells.k().s(); k <= cells.k().e(); k++) {
      for (int j = cells.j().s(); j <= cells.j().e(); j++) {
        for (int i = cells.i().s(); i <= cells.i().e(); i++) {
          sum += u.get(0, k, j, i);
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
    UniformCartesian x = md.block(b).coords();
    BlockView u = BlockView.of(md, "u", b);
    IndexBox cells = interior(md);
    for (int k = cells.k().s(); k <= cells.k().e(); k++) {
      for (int j = cells.j().s(); j <= cells.j().e(); j++) {
        for (int i = cells.i().s(); i <= cells.i().e(); i++) {
          double r2 = 0.0;
          for (int axis = 0; axis < config.ndim(); axis++) {
            double centre = 0.5 * (config.meshSize().xmin(axis) + config.meshSize().xmax(axis));
            double d = x.xc(axis, axis == 0 ? i : axis == 1 ? j : k) - centre;
            r2 += d * d;
          }
          u.set(0, k, j, i, amplitude * Math.exp(-r2 / (2.0 * width * width)));
        }
      }
    }
  }

  /** The interior cells of a block (every block of a mesh has the same). */
  static IndexBox interior(MeshData md) {
    return IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
  }
}
