package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.ParameterInput;

/** The package's initial state against the integral of its Gaussian. */
class MyPackageTest {
  @Test
  void initialStateHoldsTheGaussiansIntegral() {
    ParameterInput pin = ParameterInput.parse("test.in", String.join("\n",
        "<parthenon/mesh>", "nx1 = 64", "x1min = -0.5", "x1max = 0.5",
        "nx2 = 64", "x2min = -0.5", "x2max = 0.5",
        "nx3 = 1", "x3min = -0.5", "x3max = 0.5",
        "<parthenon/meshblock>", "nx1 = 32", "nx2 = 32",
        "<my_package>", "amplitude = 2.0", "width = 0.08"), List.of());
    Packages packages = new Packages();
    packages.add(MyPackage.initialize(pin));
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), 1, 0);
    mesh.initializeFields(packages, List.of("base"));
    double total = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        MyPackage.generate(md, b);
        total += interiorSum(md, b) * md.block(b).coords().cellVolume();
      }
    }
    // In 2D the Gaussian's integral is amplitude * 2 pi width^2; the domain cuts off < 1e-16 of it
    // and the midpoint rule on 64^2 cells is far more accurate than 1e-6.
    assertEquals(2.0 * 2.0 * Math.PI * 0.08 * 0.08, total, 1e-6);
  }

  private static double interiorSum(MeshData md, int b) {
    int u = md.state().fieldId("u");
    IndexShape cells = md.block(b).cellBounds();
    double sum = 0.0;
    for (int k = cells.start(2, IndexDomain.INTERIOR, TopologicalElement.CC);
        k <= cells.end(2, IndexDomain.INTERIOR, TopologicalElement.CC); k++) {
      for (int j = cells.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
          j <= cells.end(1, IndexDomain.INTERIOR, TopologicalElement.CC); j++) {
        for (int i = cells.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
            i <= cells.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
          sum += md.data()[md.index(u, b, 0, k, j, i)];
        }
      }
    }
    return sum;
  }
}
