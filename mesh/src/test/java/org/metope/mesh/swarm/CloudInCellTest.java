package org.metope.mesh.swarm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Cloud-in-cell on the two-level periodic mesh of {@link SwarmExchangeTest}, after its
 * 26-direction exchange has left particles next to every face, edge and corner of their blocks:
 * the deposited mass is the particles' weight (their clouds spill into ghost cells, and the
 * spilled parts reach the neighbours, across levels and ranks), the density has the same bits on
 * 1, 2 and 3 ranks, and a linear field is interpolated to every particle exactly.
 */
class CloudInCellTest {

  /** Every block's interior density after a deposit on {@code ranks} ranks, by location. */
  private static Map<LogicalLocation, double[]> deposit(int ranks) {
    Map<LogicalLocation, double[]> out = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> {
      Mesh mesh = SwarmExchangeTest.mesh("periodic", comm);
      SwarmExchangeTest.placeAndPush(mesh);
      SwarmExchangeTest.exchange(new SwarmExchange(mesh, "s"));
      double mine = DepositionTest.weigh(mesh);
      double weight = comm.allreduce(mine, ReduceOp.SUM);
      new CloudInCell(mesh).deposit("base", "s", "v", "rho");
      double kept = DepositionTest.integral(mesh);
      double deposited = comm.allreduce(kept, ReduceOp.SUM);
      assertTrue(weight > 1000.0, "weight " + weight);
      assertEquals(weight, deposited, 1e-12 * weight, ranks + " ranks");
      // The control: mass did cross between ranks, so the sum above is not each rank's own.
      double moved = comm.allreduce(Math.abs(kept - mine), ReduceOp.SUM);
      assertTrue(ranks == 1 || moved > 1e-3 * weight, "mass between ranks " + moved);
      for (MeshData md : mesh.meshData("base")) {
        int f = md.state().fieldId("rho");
        for (int b = 0; b < md.numBlocks(); b++) {
          int first = md.index(f, b, 0, 0, 0, 0);
          int last = md.index(f, b, 0, 7, 7, 7);
          out.put(md.block(b).loc(), Arrays.copyOfRange(md.data(), first, last + 1));
        }
      }
    });
    return new TreeMap<>(out);
  }

  @Test
  void givenParticlesAtEveryFaceEdgeAndCorner_thenMassIsConservedWithTheSameBitsOnAnyRanks() {
    Map<LogicalLocation, double[]> one = deposit(1);
    for (int ranks = 2; ranks <= 3; ranks++) {
      Map<LogicalLocation, double[]> many = deposit(ranks);
      assertEquals(one.keySet(), many.keySet());
      for (LogicalLocation loc : one.keySet()) {
        assertArrayEquals(one.get(loc), many.get(loc), 0.0, loc + " on " + ranks + " ranks");
      }
    }
  }

  @Test
  void givenALinearFieldWithItsGhosts_thenEveryParticleGetsItsValueExactly() {
    InProcessRun.run(2, comm -> {
      Mesh mesh = SwarmExchangeTest.mesh("periodic", comm);
      SwarmExchangeTest.placeAndPush(mesh);
      SwarmExchangeTest.exchange(new SwarmExchange(mesh, "s"));
      CloudInCell cic = new CloudInCell(mesh);
      for (MeshData md : mesh.meshData("base")) {
        fillLinear(md);
        cic.interpolate(md, "rho", "s", "v");
      }
      int checked = 0;
      for (MeshBlock block : mesh.blocks()) {
        Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
        for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
          if (swarm.isActive(n)) {
            double exact = linear(swarm.real(0)[n], swarm.real(1)[n], swarm.real(2)[n]);
            assertEquals(exact, swarm.real(3)[n], 1e-13, "particle " + swarm.integer(0)[n]);
            checked++;
          }
        }
      }
      assertTrue(checked > 0);
    });
  }

  /**
   * Three particles on the two-level mesh, each with weight 1 and 0.34 of its cloud in one ghost
   * cell (two axes at cell centres): next to a finer block the coarse ghost cell's mass is shared
   * by the 8 fine cells it covers at the ghost cell's density; next to a coarser block the fine
   * ghost cell's mass lands in the coarse cell holding it; next to a block of its own level (the
   * control) it lands in one cell. Keeping the mass whole in one fine cell (the earlier rule)
   * gives 1 nonzero fine cell instead of 8 and fails.
   */
  @Test
  void givenParticlesNextToFinerCoarserAndEqualBlocks_thenSpilledMassIsProlongedOrRestricted() {
    Mesh mesh = SwarmExchangeTest.mesh("periodic", org.metope.comm.InProcessCluster.singleRank());
    double coarse = 1.0 / 16;
    double fine = coarse / 2;
    place(mesh, 0.01, -0.5 + 1.5 * coarse, 0.25 + 1.5 * coarse);
    place(mesh, -0.005, -0.5 + 1.5 * fine, 0.25 + 1.5 * fine);
    place(mesh, 0.24, -0.5 + 1.5 * coarse, 0.25 + 1.5 * coarse);
    new CloudInCell(mesh).deposit("base", "s", "v", "rho");
    double vc = coarse * coarse * coarse;
    double vf = fine * fine * fine;
    double ghost = 0.34;
    Map<String, Double> want = new TreeMap<>();
    want.put(key(0.5 * coarse, -0.5 + 1.5 * coarse, 0.25 + 1.5 * coarse), (1 - ghost) / vc);
    for (int c = 0; c < 8; c++) {
      want.put(key(-coarse + (0.5 + (c & 1)) * fine, -0.5 + coarse + (0.5 + (c >> 1 & 1)) * fine,
          0.25 + coarse + (0.5 + (c >> 2 & 1)) * fine), ghost / vc);
    }
    want.put(key(-0.5 * fine, -0.5 + 1.5 * fine, 0.25 + 1.5 * fine), (1 - ghost) / vf);
    want.put(key(0.5 * coarse, -0.5 + 0.5 * coarse, 0.25 + 0.5 * coarse), ghost / vc);
    want.put(key(0.25 - 0.5 * coarse, -0.5 + 1.5 * coarse, 0.25 + 1.5 * coarse),
        (1 - ghost) / vc);
    want.put(key(0.25 + 0.5 * coarse, -0.5 + 1.5 * coarse, 0.25 + 1.5 * coarse), ghost / vc);
    Map<String, Double> got = nonzeroCells(mesh);
    assertEquals(want.keySet(), got.keySet());
    for (String cell : want.keySet()) {
      assertEquals(want.get(cell), got.get(cell), 1e-12 * want.get(cell), cell);
    }
    assertEquals(3.0, DepositionTest.integral(mesh), 1e-12);
  }

  /** One particle of weight 1 (component 0 of {@code v}) at {@code (x, y, z)}. */
  private static void place(Mesh mesh, double x, double y, double z) {
    for (MeshBlock block : mesh.blocks()) {
      var r = block.region();
      if (x >= r.xmin(0) && x < r.xmax(0) && y >= r.xmin(1) && y < r.xmax(1) && z >= r.xmin(2)
          && z < r.xmax(2)) {
        Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
        swarm.addEmptyParticles(1);
        int n = swarm.newSlot(0);
        swarm.real(0)[n] = x;
        swarm.real(1)[n] = y;
        swarm.real(2)[n] = z;
        swarm.real(3)[n] = 1.0;
      }
    }
  }

  private static String key(double x, double y, double z) {
    return String.format("(%.6f, %.6f, %.6f)", x, y, z);
  }

  /** Every interior cell with a nonzero density, by its centre. */
  private static Map<String, Double> nonzeroCells(Mesh mesh) {
    Map<String, Double> out = new TreeMap<>();
    for (MeshData md : mesh.meshData("base")) {
      int f = md.state().fieldId("rho");
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian xs = md.block(b).coords();
        for (int k = xs.startIndex(2); k < xs.startIndex(2) + 4; k++) {
          for (int j = xs.startIndex(1); j < xs.startIndex(1) + 4; j++) {
            for (int i = xs.startIndex(0); i < xs.startIndex(0) + 4; i++) {
              double rho = md.data()[md.index(f, b, 0, k, j, i)];
              if (rho != 0.0) {
                out.put(key(xs.x1c(i), xs.x2c(j), xs.x3c(k)), rho);
              }
            }
          }
        }
      }
    }
    return out;
  }

  private static double linear(double x, double y, double z) {
    return 0.25 + 1.5 * x - 2.0 * y + 0.75 * z;
  }

  /** rho = {@link #linear} at every cell centre of {@code md}, ghosts included. */
  private static void fillLinear(MeshData md) {
    int f = md.state().fieldId("rho");
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian xs = md.block(b).coords();
      var cells = md.block(b).cellBounds();
      for (int k = 0; k < cells.entireNcells(2); k++) {
        for (int j = 0; j < cells.entireNcells(1); j++) {
          for (int i = 0; i < cells.entireNcells(0); i++) {
            md.data()[md.index(f, b, 0, k, j, i)] = linear(xs.x1c(i), xs.x2c(j), xs.x3c(k));
          }
        }
      }
    }
  }
}
