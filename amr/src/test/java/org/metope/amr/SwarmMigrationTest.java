package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.JvmKernelBackend;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.RegionSize;

/**
 * Particles through the two remeshes of {@link BlockMigrationTest} (two root blocks refined; then
 * one merged back and a child of the other refined, which refines three neighbours too) on 1, 2
 * and 3 ranks, where blocks also change rank: every particle arrives once, with every value it
 * had, in the block whose half-open bounds hold it, in the same slot whatever the ranks.
 */
class SwarmMigrationTest {
  private static final LogicalLocation FIRST = new LogicalLocation(2, 1, 1, 0);
  private static final LogicalLocation SECOND = new LogicalLocation(2, 2, 2, 0);
  private static final LogicalLocation GRANDCHILD_PARENT = new LogicalLocation(3, 5, 5, 0);
  /** Where a block's particles sit, as fractions of its width: corners, centre, edges. */
  private static final double[][] SPOTS = {{0, 0}, {0.5, 0.5}, {0.25, 0.75}, {0.73, 0.12},
      {0.5, 0.01}, {0.999, 0.5}, {0.31, 0.5}};

  /** Everything a run leaves: each block's particles by slot, and each particle's values by id. */
  private record Result(Map<LogicalLocation, List<double[]>> slots, Map<Integer, double[]> byId) {}

  private static StateDescriptor toyWithSwarm(AmrFixtures.Tags tags) {
    StateDescriptor pkg = AmrFixtures.toy(tags);
    pkg.addSwarm("s", Metadata.of());
    pkg.addSwarmValue("id", "s", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", "s", Metadata.builder(Metadata.VECTOR).shape(3).build());
    return pkg;
  }

  /** A particle's values: x, y, z, v0, v1, v2, id. */
  private static double[] values(Swarm swarm, int n) {
    double[] out = new double[7];
    for (int c = 0; c < 6; c++) {
      out[c] = swarm.real(c)[n];
    }
    out[6] = swarm.integer(0)[n];
    return out;
  }

  /** Each block's particles at {@link #SPOTS}, ids by gid, velocities from the id. */
  private static Map<Integer, double[]> populate(Mesh mesh) {
    Map<Integer, double[]> made = new TreeMap<>();
    for (int lid = 0; lid < mesh.blocks().size(); lid++) {
      RegionSize r = mesh.blocks().get(lid).region();
      Swarm swarm = mesh.swarms().swarm(lid, "s");
      swarm.addEmptyParticles(SPOTS.length);
      for (int p = 0; p < SPOTS.length; p++) {
        int n = swarm.newSlot(p);
        int id = 100 * mesh.blocks().get(lid).gid() + p;
        swarm.real(0)[n] = r.xmin(0) + SPOTS[p][0] * (r.xmax(0) - r.xmin(0));
        swarm.real(1)[n] = r.xmin(1) + SPOTS[p][1] * (r.xmax(1) - r.xmin(1));
        swarm.real(2)[n] = 0.5;
        for (int c = 0; c < 3; c++) {
          swarm.real(3 + c)[n] = Math.sin(id + 0.1 * c);
        }
        swarm.integer(0)[n] = id;
        made.put(id, values(swarm, n));
      }
    }
    return made;
  }

  private static void remesh(Mesh mesh, BlockMigration fields, SwarmMigration particles) {
    List<LogicalLocation> before = mesh.locations();
    double[] costs = new double[before.size()];
    Arrays.fill(costs, 1.0);
    List<LogicalLocation> after = mesh.forest().resolveGids();
    RemeshPlan plan = new RemeshPlan(before, mesh.distribution(), costs, after, 2, mesh.nranks());
    fields.pack(plan, mesh.fields(), new int[mesh.blocks().size()]);
    particles.pack(plan, mesh.swarms());
    mesh.replaceBlocks(after, plan.newCosts());
    fields.deliver(plan, mesh.fields());
    particles.deliver(plan, mesh.swarms());
  }

  private static void remeshTwice(Communicator comm, Map<Integer, double[]> made,
      Map<LogicalLocation, List<double[]>> slots, Map<Integer, double[]> byId) {
    Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
        toyWithSwarm(null), comm);
    made.putAll(populate(mesh));
    BlockMigration fields = new BlockMigration(comm.duplicate(), new JvmKernelBackend(1),
        BlockRecords.forMesh(mesh), 2, mesh.nghost());
    SwarmMigration particles = new SwarmMigration(comm.duplicate(), mesh);
    mesh.forest().refine(FIRST);
    mesh.forest().refine(SECOND);
    remesh(mesh, fields, particles);
    mesh.forest().derefine(FIRST);
    mesh.forest().refine(GRANDCHILD_PARENT);
    remesh(mesh, fields, particles);
    for (int lid = 0; lid < mesh.blocks().size(); lid++) {
      Swarm swarm = mesh.swarms().swarm(lid, "s");
      RegionSize r = mesh.blocks().get(lid).region();
      List<double[]> bySlot = new ArrayList<>();
      for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
        double[] v = values(swarm, n);
        bySlot.add(swarm.isActive(n) ? v : null);
        if (!swarm.isActive(n)) {
          continue;
        }
        assertTrue(v[0] >= r.xmin(0) && v[0] < r.xmax(0) && v[1] >= r.xmin(1)
            && v[1] < r.xmax(1), "particle " + (int) v[6] + " outside its block "
            + mesh.blocks().get(lid).loc());
        double[] previous = byId.put((int) v[6], v);
        assertEquals(null, previous, "particle " + (int) v[6] + " arrived twice");
      }
      slots.put(mesh.blocks().get(lid).loc(), bySlot);
    }
  }

  private static Result run(int ranks) {
    Map<Integer, double[]> made = new ConcurrentHashMap<>();
    Map<LogicalLocation, List<double[]>> slots = new ConcurrentHashMap<>();
    Map<Integer, double[]> byId = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> remeshTwice(comm, made, slots, byId));
    assertEquals(16 * SPOTS.length, made.size());
    assertEquals(made.keySet(), new TreeMap<>(byId).keySet(), ranks + " ranks: ids after");
    for (int id : made.keySet()) {
      assertArrayEquals(made.get(id), byId.get(id), 0.0, ranks + " ranks, particle " + id);
    }
    return new Result(new TreeMap<>(slots), byId);
  }

  @Test
  void givenRefineDerefineAndMigration_thenEveryParticleArrivesOnceWithItsValues() {
    Result one = run(1);
    assertEquals(16 + 3 + 3 - 3 + 3 + 3 * 3, one.slots().size());
    // FIRST (gid 3 of the root grid's Morton order) was split and merged back: its own seven.
    List<Integer> merged = new ArrayList<>();
    for (double[] v : one.slots().get(FIRST)) {
      merged.add((int) v[6]);
    }
    assertEquals(List.of(300, 301, 302, 303, 304, 305, 306), merged.stream().sorted().toList());
    assertTrue(one.slots().get(new LogicalLocation(4, 11, 10, 0)).size() > 0, "grandchild");
  }

  /**
   * The same through {@link AdaptiveRefinement} on two ranks, as a run does it: a tagged block
   * refines (its children go to the other rank), then every block asks to derefine and the
   * children merge again.
   */
  @Test
  void givenTaggedRefineThenDerefineOnTwoRanks_thenAdaptiveRefinementKeepsEveryParticle() {
    AmrFixtures.Tags tags = new AmrFixtures.Tags();
    Map<Integer, double[]> made = new ConcurrentHashMap<>();
    Map<Integer, double[]> after = new ConcurrentHashMap<>();
    int[] blocksAfter = new int[2];
    InProcessRun.run(2, comm -> {
      var pin = AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, ""),
          "parthenon/mesh/derefine_count=1");
      Mesh mesh = AmrFixtures.mesh(pin, toyWithSwarm(tags), comm);
      AdaptiveRefinement amr = AdaptiveRefinement.fromInput(pin, mesh,
          new AmrFixtures.NoExchange());
      made.putAll(populate(mesh));
      tags.byLocation.put(new LogicalLocation(2, 1, 1, 0), AmrTag.REFINE_VALUE);
      tagAndRemesh(mesh, amr);
      blocksAfter[0] = mesh.totalBlocks();
      comm.barrier();
      tags.byLocation.clear();
      tags.otherwise = AmrTag.DEREFINE_VALUE;
      tagAndRemesh(mesh, amr);
      blocksAfter[1] = mesh.totalBlocks();
      for (int lid = 0; lid < mesh.blocks().size(); lid++) {
        Swarm swarm = mesh.swarms().swarm(lid, "s");
        for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
          if (swarm.isActive(n)) {
            assertEquals(null, after.put(swarm.integer(0)[n], values(swarm, n)));
          }
        }
      }
    });
    assertArrayEquals(new int[] {19, 16}, blocksAfter);
    assertEquals(made.keySet(), new TreeMap<>(after).keySet());
    for (int id : made.keySet()) {
      assertArrayEquals(made.get(id), after.get(id), 0.0, "particle " + id);
    }
  }

  private static void tagAndRemesh(Mesh mesh, AdaptiveRefinement amr) {
    for (MeshData md : mesh.meshData("base")) {
      amr.tag(md);
    }
    amr.loadBalancingAndAdaptiveMeshRefinement();
  }

  @Test
  void givenTwoAndThreeRanks_thenEveryBlockHoldsTheSameParticlesInTheSameSlots() {
    Result one = run(1);
    for (int ranks = 2; ranks <= 3; ranks++) {
      Result many = run(ranks);
      assertEquals(one.slots().keySet(), many.slots().keySet());
      for (LogicalLocation loc : one.slots().keySet()) {
        List<double[]> a = one.slots().get(loc);
        List<double[]> b = many.slots().get(loc);
        assertEquals(a.size(), b.size(), loc + " on " + ranks + " ranks");
        for (int n = 0; n < a.size(); n++) {
          assertArrayEquals(a.get(n), b.get(n), 0.0, loc + " slot " + n + " on " + ranks);
        }
      }
    }
  }
}
