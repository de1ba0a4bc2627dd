package org.metope.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.IndexBox;

/**
 * Restriction and prolongation between multigrid levels, checked against analytic facts:
 * restriction conserves the integral and maps a linear field to its value at the coarse centres;
 * linear prolongation reproduces a linear field at the fine centres and, as a control, does not
 * reproduce a quadratic one. With the volume-weighted inner products of the two levels,
 * restriction is the adjoint of piecewise-constant injection; Parthenon's linear prolongation,
 * whose children take one-sided slopes, is not its adjoint, and the test says so.
 */
class GridTransferTest {
  private static final double TOL = 1e-13;
  /** Transfers between blocks of up to 8 cells per axis, the widest here. */
  private final GridTransfer transfer = new GridTransfer(8);

  private static MultigridLevels levels(int ndim) {
    String deck = "<parthenon/mesh>\nmultigrid = true\nnx1 = 16\nx1min = -1\nx1max = 1\n"
        + "nx2 = " + (ndim > 1 ? 16 : 1) + "\nx2min = 0\nx2max = 2\n"
        + "nx3 = " + (ndim > 2 ? 8 : 1) + "\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 8\nnx2 = " + (ndim > 1 ? 8 : 1) + "\nnx3 = "
        + (ndim > 2 ? 8 : 1) + "\n";
    ParameterInput pin = ParameterInput.parse("transfer.in", deck, List.of());
    Mesh leaf = Mesh.build(MeshConfiguration.fromInput(pin), InProcessCluster.singleRank());
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("f", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("g", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    leaf.initializeFields(Packages.of(pkg), List.of("base"));
    InOneBoundaryCommunication exchange = InOneBoundaryCommunication.fromInput(pin);
    exchange.setup(leaf);
    return MultigridLevels.build(leaf, exchange, List.of("base"), coarse -> {
      InOneBoundaryCommunication b = InOneBoundaryCommunication.fromInput(pin);
      b.setup(coarse);
      return b;
    });
  }

  private interface Field {
    double at(double x, double y, double z);
  }

  private static void fill(MeshData md, IndexDomain domain, Field f) {
    int id = md.state().fieldId("f");
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), domain);
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian c = md.block(b).coords();
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            md.data()[md.index(id, b, 0, k, j, i)] = f.at(c.x1c(i), c.x2c(j), c.x3c(k));
          }
        }
      }
    }
  }

  /** Largest difference from {@code f} over the interior, and the volume integral. */
  private static double[] compare(MeshData md, Field f) {
    int id = md.state().fieldId("f");
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
    double worst = 0.0;
    double integral = 0.0;
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian c = md.block(b).coords();
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            double v = md.data()[md.index(id, b, 0, k, j, i)];
            worst = Math.max(worst, Math.abs(v - f.at(c.x1c(i), c.x2c(j), c.x3c(k))));
            integral += v * c.cellVolume();
          }
        }
      }
    }
    return new double[] {worst, integral};
  }

  @Test
  void givenALinearField_thenRestrictionGivesCentreValuesAndKeepsTheIntegral() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      MultigridLevels levels = levels(ndim);
      Field linear = (x, y, z) -> 1.0 + 2.0 * x - 3.0 * y + 0.5 * z;
      Field wavy = (x, y, z) -> Math.sin(3 * x) * Math.cos(2 * y) + z * z;
      for (int m = 0; m + 1 < levels.count(); m++) {
        MeshData fine = levels.mesh(m).meshData("base").get(0);
        MeshData coarse = levels.mesh(m + 1).meshData("base").get(0);
        fill(fine, IndexDomain.INTERIOR, linear);
        int id = fine.state().fieldId("f");
        transfer.restrict(fine, id, levels.links(m), coarse, id);
        assertTrue(compare(coarse, linear)[0] < TOL, "ndim=" + ndim + " level=" + m);
        fill(fine, IndexDomain.INTERIOR, wavy);
        transfer.restrict(fine, id, levels.links(m), coarse, id);
        assertEquals(compare(fine, wavy)[1], compare(coarse, wavy)[1], TOL,
            "integral ndim=" + ndim + " level=" + m);
      }
    }
  }

  @Test
  void givenALinearField_thenProlongationReproducesItAndAQuadraticOneIsNot() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      MultigridLevels levels = levels(ndim);
      Field linear = (x, y, z) -> 1.0 + 2.0 * x - 3.0 * y + 0.5 * z;
      Field quadratic = (x, y, z) -> x * x;
      MeshData fine = levels.mesh(0).meshData("base").get(0);
      MeshData coarse = levels.mesh(1).meshData("base").get(0);
      int id = fine.state().fieldId("f");
      fill(coarse, IndexDomain.ENTIRE, linear);
      transfer.prolongate(coarse, id, levels.links(0), fine, id, levels.mesh(0).nghost());
      assertTrue(compare(fine, linear)[0] < TOL, "ndim=" + ndim);
      fill(coarse, IndexDomain.ENTIRE, quadratic);
      transfer.prolongate(coarse, id, levels.links(0), fine, id, levels.mesh(0).nghost());
      assertTrue(compare(fine, quadratic)[0] > 1e-3, "control ndim=" + ndim);
    }
  }

  /**
   * {@code <R u, v>_coarse = <u, I v>_fine} for random u and v, with I the piecewise-constant
   * injection (each fine cell takes its coarse cell's value) and volume weights: averaging
   * restriction is I's adjoint, to rounding. Linear prolongation P is not: {@code <u, P v>_fine}
   * differs by more than 1e-3 of the products' scale, because its one-sided slopes make it
   * neither I nor the transpose of averaging.
   */
  @Test
  void givenRandomFields_thenRestrictionIsTheAdjointOfInjectionNotOfLinearProlongation() {
    for (int ndim = 1; ndim <= 3; ndim++) {
      MultigridLevels levels = levels(ndim);
      MeshData fine = levels.mesh(0).meshData("base").get(0);
      MeshData coarse = levels.mesh(1).meshData("base").get(0);
      int f = fine.state().fieldId("f");
      int g = fine.state().fieldId("g");
      Random random = new Random(ndim);
      randomize(fine, f, IndexDomain.INTERIOR, random);
      randomize(coarse, g, IndexDomain.ENTIRE, random);
      transfer.restrict(fine, f, levels.links(0), coarse, f);
      transfer.prolongate(coarse, g, levels.links(0), fine, g, levels.mesh(0).nghost());
      double restricted = 0.0;
      double scale = 0.0;
      IndexBox cbox = IndexBox.of(coarse.block(0).cellBounds(), IndexDomain.INTERIOR);
      for (int b = 0; b < coarse.numBlocks(); b++) {
        double vol = coarse.block(b).coords().cellVolume();
        for (int k = cbox.k().s(); k <= cbox.k().e(); k++) {
          for (int j = cbox.j().s(); j <= cbox.j().e(); j++) {
            for (int i = cbox.i().s(); i <= cbox.i().e(); i++) {
              double term = vol * coarse.data()[coarse.index(f, b, 0, k, j, i)]
                  * coarse.data()[coarse.index(g, b, 0, k, j, i)];
              restricted += term;
              scale += Math.abs(term);
            }
          }
        }
      }
      double injected = 0.0;
      double prolongated = 0.0;
      IndexBox fbox = IndexBox.of(fine.block(0).cellBounds(), IndexDomain.INTERIOR);
      for (int b = 0; b < fine.numBlocks(); b++) {
        double vol = fine.block(b).coords().cellVolume();
        for (int k = fbox.k().s(); k <= fbox.k().e(); k++) {
          int ck = ndim > 2 ? cbox.k().s() + (k - fbox.k().s()) / 2 : k;
          for (int j = fbox.j().s(); j <= fbox.j().e(); j++) {
            int cj = ndim > 1 ? cbox.j().s() + (j - fbox.j().s()) / 2 : j;
            for (int i = fbox.i().s(); i <= fbox.i().e(); i++) {
              int ci = cbox.i().s() + (i - fbox.i().s()) / 2;
              double u = fine.data()[fine.index(f, b, 0, k, j, i)];
              injected += vol * u * coarse.data()[coarse.index(g, b, 0, ck, cj, ci)];
              prolongated += vol * u * fine.data()[fine.index(g, b, 0, k, j, i)];
            }
          }
        }
      }
      assertEquals(restricted, injected, 1e-13 * scale, "injection ndim=" + ndim);
      assertTrue(Math.abs(restricted - prolongated) > 1e-3 * scale,
          "linear prolongation ndim=" + ndim + ": " + restricted + " vs " + prolongated);
    }
  }

  private static void randomize(MeshData md, int field, IndexDomain domain, Random random) {
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), domain);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            md.data()[md.index(field, b, 0, k, j, i)] = random.nextDouble() - 0.5;
          }
        }
      }
    }
  }
}
