package org.metope.examples.particleleapfrog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.driver.DriverStatus;
import org.metope.driver.RunOptions;
import org.metope.examples.TestLauncher;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's particle_leapfrog regression and example decks, run unchanged, against the final
 * particles Parthenon's own binary wrote (examples/src/test/resources/parthenon/particle_leapfrog/
 * README.md), read back with jhdf and sorted by id; and the same bits on 1, 2 and 4 ranks.
 */
class ParticleLeapfrogTest {
  private static final Path RESOURCES = Path.of("src/test/resources/parthenon/particle_leapfrog");
  private static final int PARTICLES = 14;

  @TempDir Path dir;

  /** Parthenon's final particles of {@code deck}: by id, x, y, z, vx, vy, vz. */
  private static Map<Integer, double[]> reference(String deck) {
    Map<Integer, double[]> byId = new TreeMap<>();
    try (HdfFile file = new HdfFile(RESOURCES.resolve(deck + ".out0.final.phdf"))) {
      String vars = ParticlesPackage.SWARM + "/SwarmVars/";
      int[] ids = (int[]) file.getDatasetByPath(vars + "id").getData();
      double[][] x = new double[3][];
      for (int axis = 0; axis < 3; axis++) {
        x[axis] = (double[]) file.getDatasetByPath(vars + SwarmLayout.POSITIONS.get(axis))
            .getData();
      }
      double[][] v = (double[][]) file.getDatasetByPath(vars + "v").getData();
      for (int n = 0; n < ids.length; n++) {
        byId.put(ids[n], new double[] {x[0][n], x[1][n], x[2][n], v[0][n], v[1][n], v[2][n]});
      }
    }
    return byId;
  }

  /** This rank's final particles after a run of {@code deck}: by id, x, y, z, vx, vy, vz. */
  private static Map<Integer, double[]> run(String deck, Communicator comm, Path out) {
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    ParameterInput pin = ParameterInput.load(RESOURCES.resolve(deck + ".in"), List.of());
    ApplicationRunner.Outcome outcome = ApplicationRunner.simulate(
        new ParticleLeapfrogApplication(), new ApplicationRunner.Launch(pin,
            RunOptions.of(out, discard), discard, comm, InOneBoundaryCommunication::fromInput));
    assertEquals(DriverStatus.COMPLETE, outcome.status());
    return particles(outcome.mesh());
  }

  private static Map<Integer, double[]> particles(Mesh mesh) {
    Map<Integer, double[]> byId = new TreeMap<>();
    for (MeshBlock block : mesh.blocks()) {
      Swarm swarm = mesh.swarms().swarm(block.lid(), ParticlesPackage.SWARM);
      int id = swarm.layout().variable("id").firstComponent();
      int v = swarm.layout().variable("v").firstComponent();
      for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
        if (swarm.isActive(n)) {
          double[] row = {swarm.real(0)[n], swarm.real(1)[n], swarm.real(2)[n],
              swarm.real(v)[n], swarm.real(v + 1)[n], swarm.real(v + 2)[n]};
          assertEquals(null, byId.put(swarm.integer(id)[n], row), "id twice");
        }
      }
    }
    return byId;
  }

  private void compareWithParthenon(String deck, int particles) {
    Map<Integer, double[]> parthenon = reference(deck);
    Map<Integer, double[]> metope = run(deck, InProcessCluster.singleRank(), dir);
    assertEquals(particles, parthenon.size());
    assertEquals(parthenon.keySet(), metope.keySet());
    for (int id : parthenon.keySet()) {
      assertArrayEquals(parthenon.get(id), metope.get(id), 1e-12, deck + " id " + id);
    }
  }

  /** Parthenon's regression deck: one level, to t = 2, when every particle is back at its start. */
  @Test
  void givenTheRegressionDeck_thenFinalParticlesMatchParthenonsTo1e12() {
    compareWithParthenon("regression", PARTICLES);
  }

  /** Parthenon's example deck: two levels (a refined octant), to t = 1. */
  @Test
  void givenTheExampleDeckWithTwoLevels_thenFinalParticlesMatchParthenonsTo1e12() {
    compareWithParthenon("example", PARTICLES);
  }

  /**
   * Parthenon's particle_leapfrog_outflow regression deck: outflow faces, to t = 0.55; eleven of
   * the fourteen particles leave the mesh, and the three left are those of Parthenon's table.
   */
  @Test
  void givenTheOutflowRegressionDeck_thenTheThreeParticlesLeftMatchParthenons() {
    compareWithParthenon("outflow", 3);
  }

  @Test
  void givenOneTwoAndFourRanks_thenTheFinalParticlesAreBitIdentical() {
    Map<Integer, double[]> one = run("example", InProcessCluster.singleRank(), dir.resolve("1"));
    for (int ranks : new int[] {2, 4}) {
      Map<Integer, double[]> many = new ConcurrentHashMap<>();
      Path out = dir.resolve(String.valueOf(ranks));
      InProcessRun.run(ranks, comm -> many.putAll(run("example", comm, out)));
      assertEquals(one.keySet(), new TreeMap<>(many).keySet(), ranks + " ranks");
      for (int id : one.keySet()) {
        assertArrayEquals(one.get(id), many.get(id), 0.0, ranks + " ranks, id " + id);
      }
    }
  }
}
