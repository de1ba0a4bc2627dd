package ${package};

import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * A physics package: its deck block {@code <my_package>}, its parameters and its field {@code
 * u}, and the problem generator that sets the initial state, a Gaussian {@code amplitude exp(-r^2
 * / (2 width^2))} around the centre of the domain.
 */
public final class MyPackage {
  /** The package label. */
  public static final String NAME = "my_package";
  /** The deck block of the package's keys. */
  public static final String BLOCK = "my_package";

  private MyPackage() {}

  /** Reads {@code <my_package>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("amplitude", pin.getOrAddReal(BLOCK, "amplitude", 1.0));
    double width = pin.getOrAddReal(BLOCK, "width", 0.1);
    if (!(width > 0.0)) {
      throw pin.error(BLOCK, "width", "a positive width of the initial Gaussian");
    }
    pkg.addParam("width", width);
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST).build());
    return pkg;
  }

  /** Sets {@code u} on the interior of block {@code b} of {@code md}. */
  public static void generate(MeshData md, int b) {
    StateDescriptor pkg = md.block(b).mesh().packages().get(NAME);
    double amplitude = pkg.params().getDouble("amplitude");
    double width = pkg.params().getDouble("width");
    int u = md.state().fieldId("u");
    UniformCartesian coords = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    double[] a = md.data();
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          double r2 = square(coords.x1c(i) - centre(md, 0)) + square(coords.x2c(j)
              - centre(md, 1)) + square(coords.x3c(k) - centre(md, 2));
          a[md.index(u, b, 0, k, j, i)] = amplitude * Math.exp(-r2 / (2.0 * width * width));
        }
      }
    }
  }

  /** The centre of the domain along {@code axis}, 0 along an axis the mesh does not resolve. */
  private static double centre(MeshData md, int axis) {
    MeshConfiguration config = md.block(0).mesh().config();
    return config.ndim() > axis
        ? 0.5 * (config.meshSize().xmin(axis) + config.meshSize().xmax(axis)) : 0.0;
  }

  private static double square(double x) {
    return x * x;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
