package ${package};

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.DeviceKernel;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.PackDescriptor;

/**
 * A physics package: heat {@code u} diffusing with diffusivity {@code kappa}, {@code du/dt =
 * kappa laplacian(u)}, from a Gaussian {@code amplitude exp(-r^2 / (2 width^2))} at the centre
 * of the domain. It declares its deck keys, its field with fluxes, its flux function, its time
 * step and a history output; the flux driver does the rest. Its loops read and write {@code u}
 * through views ({@code org.metope.mesh.view}), never through arena offsets. Its fluxes and its
 * history's sum are kernels written once ({@link #face}, {@link #value}): the host runs them, and
 * a device-resident backend runs the same bodies where the fields are.
 *
 * <p>{@code <my_package>} keys (defaults): {@code kappa} (1.0), {@code cfl} (0.8, the fraction
 * of the explicit stability limit), {@code amplitude} (1.0), {@code width} (0.05).
 */
public final class MyPackage {
  /** The package label and its deck block. */
  public static final String NAME = "my_package";

  /** A block's reals of the flux kernels: the diffusivity and the cell width along the kernel. */
  private static final int KAPPA = 0;
  private static final int DX = 1;

  /** Each block's sum of {@code u} over its interior cells (the history's integral). */
  private static final DeviceKernel SUM_U = DeviceKernel.reduction(StageLaunch.Kind.CELLS_SUM,
      MyPackage::value, new String[] {"u"}, TopologicalElement.CC, IndexDomain.INTERIOR, 0,
      null);

  private MyPackage() {}

  /** Reads {@code <my_package>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("kappa", pin.getOrAddPositiveReal(NAME, "kappa", 1.0, "a positive number"));
    pkg.addParam("cfl", pin.getOrAddPositiveReal(NAME, "cfl", 0.8, "a positive number"));
    pkg.addParam("amplitude", pin.getOrAddReal(NAME, "amplitude", 1.0));
    pkg.addParam("width", pin.getOrAddPositiveReal(NAME, "width", 0.05, "a positive number"));
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST).build());
    pkg.setCalculateFluxes(new Fluxes());
    pkg.setEstimateTimestepBlock(MyPackage::estimateTimestep);
    pkg.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.SUM, "total_u",
        MyPackage::total));
    return pkg;
  }

  private static Params params(MeshData md) {
    return Mesh.params(md, NAME);
  }

  /**
   * Fick's law through the lower face of cell {@code (k, j, i)} along the kernel's direction,
   * {@code -kappa (u(i) - u(i - 1)) / dx}: the body of the flux kernels, on the host and on a
   * device. It names cells through views, {@code DevicePack.get(a, t, at, v, k, j, i)} where host
   * code writes {@code u.get(b, v, k, j, i)}.
   */
  static void face(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    DevicePack.setFlux(a, t, at, 0, k, j, i, -DevicePack.real(r, rat, KAPPA)
        * (DevicePack.get(a, t, at, 0, k, j, i) - DevicePack.below(a, t, at, 0, k, j, i))
        / DevicePack.real(r, rat, DX));
  }

  /**
   * The package's flux function: one face kernel per direction over {@code u} and its fluxes,
   * declared when the mesh resolves the packages (an unknown field stops the run there), run on
   * the host ({@link #calculateFluxes}) or handed to a device-resident backend ({@link
   * #fluxLaunches}); the faces along a direction are the interior and one more above.
   */
  static final class Fluxes implements FluxFunction {
    private final DeviceKernel[] kernels = new DeviceKernel[4];

    @Override
    public void resolve(ResolvedState state) {
      PackDescriptor u = PackDescriptor.of(state, "u").withFluxes();
      for (int dir = 1; dir <= 3; dir++) {
        final int axis = dir - 1;
        kernels[dir] = DeviceKernel.faces(MyPackage::face, u, dir, 2, (md, b, n) ->
            n == KAPPA ? params(md).getDouble("kappa") : md.block(b).coords().dx(axis));
      }
    }

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

  /** The explicit limit {@code cfl / (2 kappa sum 1/dx^2)} on block {@code b}. */
  static double estimateTimestep(MeshData md, int b) {
    UniformCartesian x = md.block(b).coords();
    double inverse = 0.0;
    for (int axis = 0; axis < md.block(b).mesh().config().ndim(); axis++) {
      inverse += 1.0 / (x.dx(axis) * x.dx(axis));
    }
    return params(md).getDouble("cfl") / (2.0 * params(md).getDouble("kappa") * inverse);
  }

  /** The value {@link #SUM_U} adds up at cell {@code (k, j, i)}: {@code u} itself. */
  static double value(double[] a, int[] t, int at, double[] r, int rat, int k, int j, int i) {
    return DevicePack.get(a, t, at, 0, k, j, i);
  }

  /** The integral of {@code u} over block {@code b}: its sum in cell order, times a cell's volume. */
  static double total(MeshData md, int b) {
    return SUM_U.block(md, b) * md.block(b).coords().cellVolume();
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
