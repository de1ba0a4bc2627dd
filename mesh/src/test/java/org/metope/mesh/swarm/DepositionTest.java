package org.metope.mesh.swarm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.view.BlockView;

/**
 * Nearest-grid-point deposition conserves mass: on the two-level periodic mesh of {@link
 * SwarmExchangeTest}, after the 26-direction exchange has moved particles across blocks, levels
 * and ranks, the deposited density integrated over every interior cell is the particles' total
 * weight, on one and two ranks.
 */
class DepositionTest {

  /** Gives each particle the weight {@code (id % 7 + 1) * 0.5}, stored in its {@code v} x. */
  static double weigh(Mesh mesh) {
    double total = 0.0;
    for (MeshBlock block : mesh.blocks()) {
      Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
      for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
        if (swarm.isActive(n)) {
          swarm.real(3)[n] = (swarm.integer(0)[n] % 7 + 1) * 0.5;
          total += swarm.real(3)[n];
        }
      }
    }
    return total;
  }

  static double integral(Mesh mesh) {
    double sum = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        BlockView rho = BlockView.of(md, "rho", b);
        IndexShape cells = md.block(b).cellBounds();
        double volume = md.block(b).coords().cellVolume();
        IndexRange ib = cells.boundsI(IndexDomain.INTERIOR);
        IndexRange jb = cells.boundsJ(IndexDomain.INTERIOR);
        IndexRange kb = cells.boundsK(IndexDomain.INTERIOR);
        for (int k = kb.s(); k <= kb.e(); k++) {
          for (int j = jb.s(); j <= jb.e(); j++) {
            for (int i = ib.s(); i <= ib.e(); i++) {
              sum += rho.get(0, k, j, i) * volume;
            }
          }
        }
      }
    }
    return sum;
  }

  private static void depositAndCheck(int ranks) {
    InProcessRun.run(ranks, comm -> {
      Mesh mesh = SwarmExchangeTest.mesh("periodic", comm);
      SwarmExchangeTest.placeAndPush(mesh);
      SwarmExchangeTest.exchange(new SwarmExchange(mesh, "s"));
      double weight = comm.allreduce(weigh(mesh), ReduceOp.SUM);
      for (MeshData md : mesh.meshData("base")) {
        Deposition.nearestGridPoint(md, "s", "v", "rho");
      }
      double deposited = comm.allreduce(integral(mesh), ReduceOp.SUM);
      assertTrue(weight > 1000.0, "weight " + weight);
      assertEquals(weight, deposited, 1e-12 * weight, ranks + " ranks");
    });
  }

  @Test
  void givenParticlesAcrossTwoLevelsOnOneAndTwoRanks_thenTheDepositedMassIsTheirWeight() {
    depositAndCheck(1);
    depositAndCheck(2);
  }

  /** Particles use the block's own cells: a FINE field (twice the resolution) is refused. */
  @Test
  void givenAFineField_thenDepositionAndInterpolationRefuseItInOneLine() {
    StateDescriptor pkg = SwarmExchangeTest.swarmPackage();
    pkg.addField("rho_fine", Metadata.of(Metadata.CELL, Metadata.FINE));
    Mesh mesh = SwarmExchangeTest.mesh("periodic", InProcessCluster.singleRank(), pkg);
    MeshData md = mesh.meshData("base").get(0);
    String line = "field=rho_fine is FINE: particles deposit into and interpolate from fields of"
        + " the block's resolution";
    assertEquals(line, assertThrows(SetupError.class,
        () -> Deposition.nearestGridPoint(md, "s", "v", "rho_fine")).getMessage());
    CloudInCell cic = new CloudInCell(mesh);
    assertEquals(line, assertThrows(SetupError.class,
        () -> cic.deposit("base", "s", "v", "rho_fine")).getMessage());
    assertEquals(line, assertThrows(SetupError.class,
        () -> cic.interpolate(md, "rho_fine", "s", "v")).getMessage());
    // Control: the same calls on the block-resolution field of the same mesh go through.
    Deposition.nearestGridPoint(md, "s", "v", "rho");
    cic.deposit("base", "s", "v", "rho");
    cic.interpolate(md, "rho", "s", "v");
  }

  @Test
  void givenAParticleOutsideItsBlock_thenDepositionSaysExchangeFirst() {
    Mesh mesh = SwarmExchangeTest.mesh("periodic", InProcessCluster.singleRank());
    SwarmExchangeTest.placeAndPush(mesh);
    MeshData md = mesh.meshData("base").get(0);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Deposition.nearestGridPoint(md, "s", "v", "rho"));
    assertTrue(e.getMessage().contains("exchange the swarm before depositing"), e.getMessage());
  }
}
