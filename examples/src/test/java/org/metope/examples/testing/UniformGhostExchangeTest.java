package org.metope.examples.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * The test exchange must be right for the simulations built on it to mean anything: fill every
 * interior cell with a function of its global position, exchange, and count every ghost cell
 * that does not hold the function at its periodic image.
 */
class UniformGhostExchangeTest {
  private static final int N = 8;

  private static Mesh mesh(Communicator comm, String... overrides) {
    String deck = "<parthenon/mesh>\n";
    for (int axis = 1; axis <= 3; axis++) {
      deck += "nx" + axis + " = " + N + "\nx" + axis + "min = 0\nx" + axis + "max = " + N
          + "\nix" + axis + "_bc = periodic\nox" + axis + "_bc = periodic\n";
    }
    deck += "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\nnx3 = 4\n";
    ParameterInput pin = ParameterInput.parse("t.in", deck, List.of(overrides));
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build());
    pkg.addField("w", Metadata.of(Metadata.CELL, Metadata.DERIVED));
    Packages packages = new Packages();
    packages.add(pkg);
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
    mesh.initializeFields(packages, List.of("base"));
    return mesh;
  }

  /** A distinct value for every cell of the periodic domain (cell centres are at x + 0.5). */
  private static double f(int c, double x, double y, double z) {
    int i = Math.floorMod((int) Math.floor(x), N);
    int j = Math.floorMod((int) Math.floor(y), N);
    int k = Math.floorMod((int) Math.floor(z), N);
    return c * 1000 + (k * N + j) * N + i;
  }

  private static int exchangeAndCountWrongGhosts(Mesh mesh) {
    int u = mesh.resolvedPackages().fieldId("u");
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian x = md.block(b).coords();
        for (int c = 0; c < 2; c++) {
          for (int k = 2; k < 6; k++) {
            for (int j = 2; j < 6; j++) {
              for (int i = 2; i < 6; i++) {
                md.data()[md.index(u, b, c, k, j, i)] = f(c, x.x1c(i), x.x2c(j), x.x3c(k));
              }
            }
          }
        }
      }
    }
    UniformGhostExchange exchange = new UniformGhostExchange();
    exchange.setup(mesh);
    exchange.fillGhosts(mesh, "base");
    int wrong = 0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian x = md.block(b).coords();
        for (int c = 0; c < 2; c++) {
          for (int k = 0; k < 8; k++) {
            for (int j = 0; j < 8; j++) {
              for (int i = 0; i < 8; i++) {
                if (md.data()[md.index(u, b, c, k, j, i)] != f(c, x.x1c(i), x.x2c(j), x.x3c(k))) {
                  wrong++;
                }
              }
            }
          }
        }
      }
    }
    return wrong;
  }

  @Test
  void givenOneRank_thenEveryGhostCellHoldsItsPeriodicImage() {
    assertEquals(0, exchangeAndCountWrongGhosts(mesh(InProcessCluster.singleRank())));
    assertEquals(0, exchangeAndCountWrongGhosts(mesh(InProcessCluster.singleRank(),
        "parthenon/mesh/pack_size=3")));
  }

  @Test
  void givenThreeRanks_thenEveryGhostCellHoldsItsPeriodicImage() {
    AtomicInteger wrong = new AtomicInteger();
    InProcessCluster.run(3, comm -> wrong.addAndGet(exchangeAndCountWrongGhosts(mesh(comm))));
    assertEquals(0, wrong.get());
  }

  @Test
  void givenAPhysicalBoundary_thenTheTestExchangeRefuses() {
    Mesh mesh = mesh(InProcessCluster.singleRank(), "parthenon/mesh/ix2_bc=outflow",
        "parthenon/mesh/ox2_bc=outflow");
    assertThrows(UnsupportedOperationException.class, () -> new UniformGhostExchange()
        .setup(mesh));
  }
}
