package org.metope.mesh.swarm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.TestMeshes;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.RegionSize;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;

/**
 * Analytic self-check of the particle exchange: on a periodic 3D mesh with two levels, every
 * block sends one particle through each of its 26 neighbour directions; each must arrive exactly
 * once, with its id and values, in the block that a brute-force search over every block of the
 * mesh (not the exchange's neighbour lists) finds at its wrapped position.
 */
class SwarmExchangeTest {
  static final int DIRECTIONS = 26;
  /** Values per particle gathered from every rank: id, gid, slot, x, y, z, v0. */
  private static final int FIELDS = 7;

  private static String deck(String bc) {
    StringBuilder d = new StringBuilder("<parthenon/mesh>\nrefinement = static\n");
    for (int axis = 1; axis <= 3; axis++) {
      d.append("nx").append(axis).append(" = 16\nx").append(axis).append("min = -0.5\nx")
          .append(axis).append("max = 0.5\nix").append(axis).append("_bc = ").append(bc)
          .append("\nox").append(axis).append("_bc = ").append(bc).append('\n');
    }
    d.append("<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\nnx3 = 4\n");
    d.append("<parthenon/static_refinement1>\nlevel = 1\nx1min = -0.5\nx1max = -0.1\n"
        + "x2min = -0.5\nx2max = 0.2\nx3min = 0.1\nx3max = 0.5\n");
    return d.toString();
  }

  static Mesh mesh(String bc, Communicator comm) {
    return mesh(bc, comm, swarmPackage());
  }

  /** The mesh of {@code bc} with package {@code pkg} ({@link #swarmPackage} or one built on it). */
  static Mesh mesh(String bc, Communicator comm, StateDescriptor pkg) {
    return TestMeshes.mesh(TestMeshes.pin(deck(bc)), TestMeshes.packages(pkg), List.of("base"),
        comm);
  }

  /** Cell field {@code rho} and swarm {@code s} with an integer {@code id} and a vector {@code v}. */
  static StateDescriptor swarmPackage() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("rho", Metadata.of(Metadata.CELL));
    pkg.addSwarm("s", Metadata.of());
    pkg.addSwarmValue("id", "s", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", "s", Metadata.builder(Metadata.VECTOR).shape(3).build());
    return pkg;
  }

  private static int[] direction(int d) {
    int code = d < 13 ? d : d + 1;
    return new int[] {code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1};
  }

  /**
   * One particle per block and direction, near the face, edge or corner of that direction, with
   * id {@code 26 gid + d} and velocity {@code id + 0.5}, then pushed through it by a quarter of
   * the block's width plus a little.
   */
  static void placeAndPush(Mesh mesh) {
    for (MeshBlock block : mesh.blocks()) {
      Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
      swarm.addEmptyParticles(DIRECTIONS);
      for (int d = 0; d < DIRECTIONS; d++) {
        int n = swarm.newSlot(d);
        int[] dir = direction(d);
        swarm.integer(0)[n] = DIRECTIONS * block.gid() + d;
        swarm.real(3)[n] = DIRECTIONS * block.gid() + d + 0.5;
        for (int axis = 0; axis < 3; axis++) {
          double min = block.region().xmin(axis);
          double width = block.region().xmax(axis) - min;
          double start = min + width * (0.5 + 0.4 * dir[axis]);
          swarm.real(axis)[n] = start + dir[axis] * 0.25 * width;
        }
      }
    }
  }

  /** Where the particle of {@code id} should be: its wrapped position and the gid holding it. */
  private static double[] expected(Mesh mesh, int id) {
    return expected(mesh, id, false);
  }

  /** As {@link #expected(Mesh, int)}, the faces mirroring the particle when {@code reflecting}. */
  private static double[] expected(Mesh mesh, int id, boolean reflecting) {
    LogicalLocation from = mesh.location(id / DIRECTIONS);
    RegionSize region = mesh.blockRegion(from);
    int[] dir = direction(id % DIRECTIONS);
    double[] x = new double[3];
    for (int axis = 0; axis < 3; axis++) {
      double min = region.xmin(axis);
      double width = region.xmax(axis) - min;
      x[axis] = min + width * (0.5 + 0.4 * dir[axis]) + dir[axis] * 0.25 * width;
      if (x[axis] >= 0.5) {
        x[axis] = reflecting ? 2 * 0.5 - x[axis] : -0.5 + (x[axis] - 0.5);
      } else if (x[axis] < -0.5) {
        x[axis] = reflecting ? 2 * -0.5 - x[axis] : 0.5 - (-0.5 - x[axis]);
      }
    }
    int holder = -1;
    for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
      RegionSize r = mesh.blockRegion(mesh.location(gid));
      boolean inside = true;
      for (int axis = 0; axis < 3; axis++) {
        inside &= x[axis] >= r.xmin(axis) && x[axis] < r.xmax(axis);
      }
      if (inside) {
        assertEquals(-1, holder, "two blocks hold " + java.util.Arrays.toString(x));
        holder = gid;
      }
    }
    return new double[] {holder, x[0], x[1], x[2]};
  }

  static void exchange(SwarmExchange exchange) {
    TaskCollection tc = new TaskCollection();
    TaskList list = tc.addRegion(1).get(0);
    exchange.addTasks(list, TaskId.NONE);
    tc.execute();
  }

  /** Every particle of every rank as {@link #FIELDS} values, ranks in order. */
  private static double[] gather(Mesh mesh) {
    List<MeshBlock> blocks = mesh.blocks();
    int count = (int) mesh.swarms().numParticles();
    double[] mine = new double[FIELDS * count];
    int at = 0;
    for (MeshBlock block : blocks) {
      Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
      for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
        if (swarm.isActive(n)) {
          double[] row = {swarm.integer(0)[n], block.gid(), n, swarm.real(0)[n],
              swarm.real(1)[n], swarm.real(2)[n], swarm.real(3)[n]};
          System.arraycopy(row, 0, mine, at, FIELDS);
          at += FIELDS;
        }
      }
    }
    return mesh.communicator().allgather(mine);
  }

  private static double[] run(int ranks) {
    return run(ranks, true);
  }

  private static double[] run(int ranks, boolean exchanging) {
    AtomicReference<double[]> result = new AtomicReference<>();
    InProcessRun.run(ranks, comm -> {
      Mesh mesh = mesh("periodic", comm);
      placeAndPush(mesh);
      SwarmExchange exchange = new SwarmExchange(mesh, "s");
      if (exchanging) {
        exchange(exchange);
      }
      double[] all = gather(mesh);
      if (comm.rank() == 0) {
        result.set(all);
        checkArrivals(mesh, all);
      }
    });
    return result.get();
  }

  private static void checkArrivals(Mesh mesh, double[] all) {
    int total = DIRECTIONS * mesh.totalBlocks();
    assertEquals(total * FIELDS, all.length, "particles lost or duplicated");
    boolean[] seen = new boolean[total];
    int crossedLevels = 0;
    for (int at = 0; at < all.length; at += FIELDS) {
      int id = (int) all[at];
      assertFalse(seen[id], "id " + id + " twice");
      seen[id] = true;
      double[] want = expected(mesh, id);
      assertEquals((int) want[0], (int) all[at + 1], "block of id " + id);
      assertArrayEquals(new double[] {want[1], want[2], want[3]},
          new double[] {all[at + 3], all[at + 4], all[at + 5]}, "position of id " + id);
      assertEquals(id + 0.5, all[at + 6], "velocity of id " + id);
      if (mesh.location(id / DIRECTIONS).level() != mesh.location((int) want[0]).level()) {
        crossedLevels++;
      }
    }
    assertTrue(crossedLevels > 100, "particles between levels: " + crossedLevels);
  }

  @Test
  void givenParticlesThroughAll26Directions_thenEachArrivesOnceWhereABruteForceSearchSays() {
    run(1);
  }

  /** The control: without the exchange every particle is still in the block it left. */
  @Test
  void givenNoExchange_thenTheCheckFindsParticlesInTheWrongBlock() {
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> run(1, false));
    assertTrue(e.getMessage().startsWith("block of id"), e.getMessage());
  }

  @Test
  void givenTwoAndThreeRanks_thenEveryParticleEndsInTheSameBlockAndSlotAsOnOne() {
    double[] one = run(1);
    assertArrayEquals(one, run(2));
    assertArrayEquals(one, run(3));
  }

  @Test
  void givenOutflowFaces_thenParticlesLeavingTheMeshAreRemovedAndTheRestArrive() {
    InProcessRun.run(2, comm -> {
      Mesh mesh = mesh("outflow", comm);
      placeAndPush(mesh);
      SwarmExchange exchange = new SwarmExchange(mesh, "s");
      exchange(exchange);
      double[] all = gather(mesh);
      int leaving = 0;
      for (int id = 0; id < DIRECTIONS * mesh.totalBlocks(); id++) {
        RegionSize r = mesh.blockRegion(mesh.location(id / DIRECTIONS));
        int[] dir = direction(id % DIRECTIONS);
        boolean out = false;
        for (int axis = 0; axis < 3; axis++) {
          out |= dir[axis] < 0 && r.xmin(axis) == -0.5 || dir[axis] > 0 && r.xmax(axis) == 0.5;
        }
        leaving += out ? 1 : 0;
      }
      assertTrue(leaving > 0);
      assertEquals((DIRECTIONS * mesh.totalBlocks() - leaving) * FIELDS, all.length);
    });
  }

  @Test
  void givenAParticleTwoBlocksAway_thenTheExchangeSaysSo() {
    Mesh mesh = mesh("periodic", InProcessCluster.singleRank());
    Swarm swarm = mesh.swarms().swarm(0, "s");
    swarm.addEmptyParticles(1);
    MeshBlock block = mesh.blocks().get(0);
    double width = block.region().xmax(0) - block.region().xmin(0);
    swarm.real(0)[0] = block.region().xmin(0) + 2.5 * width;
    swarm.real(1)[0] = block.region().xmin(1);
    swarm.real(2)[0] = block.region().xmin(2);
    SwarmExchange exchange = new SwarmExchange(mesh, "s");
    IllegalStateException e = assertThrows(IllegalStateException.class, exchange::send);
    assertTrue(e.getMessage().contains("more than one block"), e.getMessage());
  }

  @Test
  void givenAReflectingFace_thenTheExchangeRefusesItInOneLine() {
    Mesh mesh = mesh("reflecting", InProcessCluster.singleRank());
    SetupError e = assertThrows(SetupError.class, () -> new SwarmExchange(mesh, "s"));
    assertEquals("<parthenon/mesh> ix1_bc = reflecting: particles know periodic, outflow and the"
        + " conditions registered for the face", e.getMessage());
  }
  /** A user condition: mirrors the particle in the face and reverses v's component on its axis. */
  private static boolean reflect(Swarm swarm, int n, BoundaryFace face, RegionSize size) {
    int axis = face.axis();
    double wall = face.isOuter() ? size.xmax(axis) : size.xmin(axis);
    swarm.real(axis)[n] = 2 * wall - swarm.real(axis)[n];
    swarm.real(3 + axis)[n] = -swarm.real(3 + axis)[n];
    return true;
  }

  private static SwarmBoundaryFunctions everyFace(String name, SwarmBoundaryFunction function) {
    SwarmBoundaryFunctions functions = new SwarmBoundaryFunctions();
    for (BoundaryFace face : BoundaryFace.values()) {
      functions.register(face, name, function);
    }
    return functions;
  }

  @Test
  void givenAUserReflectingCondition_thenParticlesComeBackMirroredOnTwoRanks() {
    InProcessRun.run(2, comm -> {
      Mesh mesh = mesh("user", comm);
      placeAndPush(mesh);
      exchange(new SwarmExchange(mesh, "s", everyFace("user", SwarmExchangeTest::reflect)));
      double[] all = gather(mesh);
      assertEquals(DIRECTIONS * mesh.totalBlocks() * FIELDS, all.length, "lost or duplicated");
      int mirroredInX1 = 0;
      for (int at = 0; at < all.length; at += FIELDS) {
        int id = (int) all[at];
        double[] want = expected(mesh, id, true);
        assertEquals((int) want[0], (int) all[at + 1], "block of id " + id);
        assertArrayEquals(new double[] {want[1], want[2], want[3]},
            new double[] {all[at + 3], all[at + 4], all[at + 5]}, 1e-15, "position of " + id);
        RegionSize from = mesh.blockRegion(mesh.location(id / DIRECTIONS));
        int[] dir = direction(id % DIRECTIONS);
        boolean mirrored = dir[0] < 0 && from.xmin(0) == -0.5 || dir[0] > 0 && from.xmax(0) == 0.5;
        mirroredInX1 += mirrored ? 1 : 0;
        assertEquals(mirrored ? -(id + 0.5) : id + 0.5, all[at + 6], "velocity of id " + id);
      }
      assertTrue(mirroredInX1 > 0);
    });
  }

  /** The controls: a name no function is registered under, and a function that misplaces. */
  @Test
  void givenAnUnregisteredOrMisplacingUserCondition_thenOneLineSaysSo() {
    Mesh mesh = mesh("user", InProcessCluster.singleRank());
    SetupError e = assertThrows(SetupError.class, () -> new SwarmExchange(mesh, "s",
        everyFace("mirror", SwarmExchangeTest::reflect)));
    assertTrue(e.getMessage().startsWith("<parthenon/mesh> ix1_bc = user: particles know"),
        e.getMessage());
    placeAndPush(mesh);
    SwarmExchange stays = new SwarmExchange(mesh, "s", everyFace("user", (s, n, f, r) -> true));
    IllegalStateException outside = assertThrows(IllegalStateException.class, stays::send);
    assertTrue(outside.getMessage().contains("outside the mesh"), outside.getMessage());
  }
}
