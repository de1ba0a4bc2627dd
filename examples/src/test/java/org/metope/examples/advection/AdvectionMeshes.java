package org.metope.examples.advection;

import java.util.List;
import org.metope.driver.FluxDriver;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/** Small meshes carrying the advection packages, for unit tests of the package's parts. */
final class AdvectionMeshes {
  private AdvectionMeshes() {}

  /** A periodic mesh over [-0.5, 0.5]^d, {@code nx} cells per active axis, blocks of {@code bx}. */
  static String deck(int ndim, int nx, int bx, String advection) {
    StringBuilder s = new StringBuilder("<parthenon/mesh>\n");
    for (int axis = 1; axis <= 3; axis++) {
      boolean active = axis <= ndim;
      s.append("nx").append(axis).append(" = ").append(active ? nx : 1).append('\n')
          .append("x").append(axis).append("min = -0.5\nx").append(axis).append("max = 0.5\n")
          .append("ix").append(axis).append("_bc = periodic\nox").append(axis)
          .append("_bc = periodic\n");
    }
    s.append("<parthenon/meshblock>\n");
    for (int axis = 1; axis <= ndim; axis++) {
      s.append("nx").append(axis).append(" = ").append(bx).append('\n');
    }
    return s.append("<Advection>\n").append(advection).toString();
  }

  static ParameterInput pin(String text, String... overrides) {
    return ParameterInput.parse("t.in", text, List.of(overrides));
  }

  /** The mesh of {@code pin} with both advection packages and containers base, 1, dUdt. */
  static Mesh mesh(ParameterInput pin) {
    Packages packages = new Packages();
    packages.add(AdvectionPackage.initialize(pin));
    StateDescriptor app = new StateDescriptor("advection_app");
    app.setPreFillDerived(AdvectionDerived::preFill);
    app.setPostFillDerived(AdvectionDerived::postFill);
    packages.add(app);
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), InProcessCluster.singleRank());
    mesh.initializeFields(packages, List.of("base", "1", FluxDriver.DUDT));
    return mesh;
  }
}
