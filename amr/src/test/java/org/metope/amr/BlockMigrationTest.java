package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.metope.kernels.JvmKernelBackend;
import org.metope.mesh.Mesh;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Remeshes a 2D mesh twice (first refining two root blocks, then merging one of them back and
 * refining a child of the other, which refines the three root blocks around that corner too) on 1,
 * 2 and 3 ranks, moving blocks between ranks, and checks what every new block holds. One migration
 * does both remeshes, so the second reuses the first's message arrays, which still hold its
 * records.
 */
class BlockMigrationTest {
  private static final LogicalLocation FIRST = new LogicalLocation(2, 1, 1, 0);
  private static final LogicalLocation SECOND = new LogicalLocation(2, 2, 2, 0);
  private static final LogicalLocation GRANDCHILD_PARENT = new LogicalLocation(3, 5, 5, 0);

  /** What one block holds after the remeshes. */
  private record Block(double[] q, double[] s1, boolean s1Allocated, int deallocationCount,
      int derefineCount) {}

  /** A value that depends only on where a cell is, whatever the rank. */
  private static double hash(LogicalLocation loc, int n) {
    return Math.sin(1.0 + loc.level() * 0.37 + loc.lx1() * 1.31 + loc.lx2() * 2.17 + n * 0.013);
  }

  /** One remesh to the forest's leaves; returns the new blocks' derefinement counters. */
  static int[] moveData(Mesh mesh, BlockMigration migration, int[] counts) {
    List<LogicalLocation> before = mesh.locations();
    double[] costs = new double[before.size()];
    java.util.Arrays.fill(costs, 1.0);
    List<LogicalLocation> after = mesh.forest().resolveGids();
    RemeshPlan plan = new RemeshPlan(before, mesh.distribution(), costs, after, mesh.ndim(),
        mesh.nranks());
    migration.pack(plan, mesh.fields(), counts);
    mesh.replaceBlocks(after, plan.newCosts());
    return migration.deliver(plan, mesh.fields());
  }

  private static Map<LogicalLocation, Block> run(int ranks) {
    Map<LogicalLocation, Block> out = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> remeshTwice(comm, out));
    return new TreeMap<>(out);
  }

  private static void remeshTwice(Communicator comm, Map<LogicalLocation, Block> out) {
    Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
        AmrFixtures.toy(null), comm);
    AmrFixtures.fillLinear(mesh, "q", 0.5, 2.0, -3.0, 0.0);
    FieldStorage s = mesh.fields();
    int s1 = mesh.resolvedPackages().fieldId("s_1");
    int[] counts = new int[mesh.blocks().size()];
    for (int lid = 0; lid < mesh.blocks().size(); lid++) {
      LogicalLocation loc = mesh.blocks().get(lid).loc();
      counts[lid] = (int) (loc.lx1() + 10 * loc.lx2());
      if ((loc.lx1() + loc.lx2()) % 2 == 0) {
        s.allocateSparse(s1, lid);
        s.setDeallocationCount(s1, lid, (int) loc.lx2() + 1);
        int off = s.layout().offset(s.layout().dataInstance(s1, 0), lid);
        for (int n = 0; n < s.layout().blockLength(s.layout().dataInstance(s1, 0)); n++) {
          s.data()[off + n] = hash(loc, n);
        }
      }
    }
    BlockRecords records = BlockRecords.forMesh(mesh);
    BlockMigration migration = new BlockMigration(comm.duplicate(), new JvmKernelBackend(1),
        records, 2, mesh.nghost());
    mesh.forest().refine(FIRST);
    mesh.forest().refine(SECOND);
    counts = moveData(mesh, migration, counts);
    mesh.forest().derefine(FIRST);
    mesh.forest().refine(GRANDCHILD_PARENT);
    counts = moveData(mesh, migration, counts);
    collect(mesh, counts, out);
  }

  private static void collect(Mesh mesh, int[] counts, Map<LogicalLocation, Block> out) {
    FieldStorage s = mesh.fields();
    ArenaLayout l = s.layout();
    int q = mesh.resolvedPackages().fieldId("q");
    int s1 = mesh.resolvedPackages().fieldId("s_1");
    for (int lid = 0; lid < mesh.blocks().size(); lid++) {
      int qi = l.dataInstance(q, 0);
      double[] qv = java.util.Arrays.copyOfRange(s.data(), l.offset(qi, lid),
          l.offset(qi, lid) + l.blockLength(qi));
      boolean allocated = s.isAllocated(s1, lid);
      int si = l.dataInstance(s1, 0);
      double[] sv = allocated ? java.util.Arrays.copyOfRange(s.data(), l.offset(si, lid),
          l.offset(si, lid) + l.blockLength(si)) : new double[0];
      out.put(mesh.blocks().get(lid).loc(), new Block(qv, sv, allocated,
          s.deallocationCount(s1, lid), counts[lid]));
    }
  }

  @Test
  void givenOneTwoAndThreeRanks_thenEveryBlockHoldsTheSameBits() {
    Map<LogicalLocation, Block> reference = run(1);
    for (int ranks = 2; ranks <= 3; ranks++) {
      Map<LogicalLocation, Block> other = run(ranks);
      assertEquals(reference.keySet(), other.keySet());
      for (LogicalLocation loc : reference.keySet()) {
        Block a = reference.get(loc);
        Block b = other.get(loc);
        assertArrayEquals(a.q(), b.q(), loc + " on " + ranks + " ranks");
        assertArrayEquals(a.s1(), b.s1(), loc + " on " + ranks + " ranks");
        assertEquals(a.deallocationCount(), b.deallocationCount());
        assertEquals(a.derefineCount(), b.derefineCount());
      }
    }
    assertEquals(16 + 3 + 3 - 3 + 3 + 3 * 3, reference.size());
  }

  @Test
  void givenTheRemeshes_thenKeptBlocksKeepTheirDataAndCountersAndNewOnesAreInterpolated() {
    Map<LogicalLocation, Block> blocks = run(2);
    Mesh geometry = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
        AmrFixtures.toy(null), InProcessCluster.singleRank());
    LogicalLocation kept = new LogicalLocation(2, 2, 0, 0);
    Block k = blocks.get(kept);
    assertEquals(2, k.derefineCount());
    assertTrue(k.s1Allocated());
    assertEquals(1, k.deallocationCount());
    for (int n = 0; n < k.s1().length; n++) {
      assertEquals(hash(kept, n), k.s1()[n]);
    }
    assertFalse(blocks.get(new LogicalLocation(2, 3, 0, 0)).s1Allocated());
    // The merged block, the grandchildren and the children: interiors are the linear field.
    for (LogicalLocation loc : List.of(FIRST, new LogicalLocation(4, 11, 10, 0),
        new LogicalLocation(3, 6, 4, 0))) {
      Block b = blocks.get(loc);
      assertEquals(0, b.derefineCount(), loc.toString());
      UniformCartesian xs = new UniformCartesian(
          geometry.blockRegion(loc), geometry.nghost());
      for (int j = 2; j < 10; j++) {
        for (int i = 2; i < 10; i++) {
          assertEquals(0.5 + 2.0 * xs.x1c(i) - 3.0 * xs.x2c(j), b.q()[j * 12 + i], 1e-13,
              loc + " " + j + "," + i);
        }
      }
    }
    // s_1 was allocated on (2: 1, 1) and (2: 2, 2): their children and the merged block have it.
    assertTrue(blocks.get(FIRST).s1Allocated());
    assertTrue(blocks.get(new LogicalLocation(3, 5, 4, 0)).s1Allocated());
    assertEquals(0, blocks.get(new LogicalLocation(3, 5, 4, 0)).deallocationCount());
  }
}
