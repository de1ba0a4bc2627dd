package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.PostingOrder;
import org.metope.comm.InProcessRun;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * After a remesh, a ghost-exchange plan that takes the rows of blocks that kept their
 * neighbours, and those of blocks that kept some, from the plan before ({@link PreviousPlans})
 * is the plan a build from scratch makes, column for column, channel for channel, in every
 * partition of both stage containers, on one rank and on each of two, through two remeshes (a
 * refinement, then a refinement next to it).
 */
class PreviousPlansTest {
  @ParameterizedTest(name = "ranks={0}, coalesce={1}")
  @CsvSource({"1, true", "2, true", "2, false"})
  void givenARemesh_thenPlansFromOldRowsAreTheBuiltOnes(int ranks, boolean coalesce) {
    long[] relocated = new long[ranks];
    long[] partlyKept = new long[ranks];
    InProcessRun.run(ranks, world -> {
      ParameterInput pin = ParameterInput.parse("previous.in", ValueChannelsTest.DECK,
          List.of());
      Mesh mesh = ValueChannelsTest.twoFieldMesh(pin, world, List.of("base", "1"));
      try (KernelBackend backend = KernelBackends.create("jvm", 1)) {
        InOneBoundaryCommunication comm = new InOneBoundaryCommunication(backend,
            PostingOrder.cacheOrder(), SparseConfig.fromInput(pin), coalesce);
        comm.setup(mesh);
        BoundaryCacheBuilder builder = new BoundaryCacheBuilder(comm, comm.caches());
        for (int remesh = 0; remesh < 2; remesh++) {
          buildEveryPlan(mesh, comm);
          comm.release();
          LogicalLocation root = mesh.location(remesh);
          mesh.forest().refine(remesh == 0 ? root : root.children(2)[0]);
          List<LogicalLocation> leaves = mesh.forest().resolveGids();
          double[] costs = new double[leaves.size()];
          Arrays.fill(costs, 1.0);
          mesh.replaceBlocks(leaves, costs);
          comm.setup(mesh);
          PreviousPlans previous = comm.caches().previousPlans();
          assertNotNull(previous);
          for (String container : List.of("base", "1")) {
            for (MeshData md : mesh.meshData(container)) {
              for (boolean sender : new boolean[] {true, false}) {
                long before = comm.boundariesRelocated();
                BvarsSubCache fresh = builder.build(md, BoundaryType.ANY, sender, null, null);
                BvarsSubCache taken = builder.build(md, BoundaryType.ANY, sender, null,
                    previous);
                assertSamePlan(fresh, taken);
                if (container.equals("base")) {
                  // The other container's plans are carried over, not kept (ContainerPlans).
                  partlyKept[world.rank()] += comm.boundariesRelocated() - before
                      - keptBlocksRows(md, comm);
                }
              }
            }
          }
        }
        relocated[world.rank()] = comm.boundariesRelocated();
      }
    });
    for (int r = 0; r < ranks; r++) {
      assertTrue(relocated[r] > 0, "rank " + r + " took no rows from the old plans");
    }
    assertTrue(Arrays.stream(partlyKept).sum() > 0,
        "no rows taken for blocks whose neighbourhood changed");
  }

  /** The boundaries of {@code md}'s blocks that kept their whole neighbourhood. */
  private static long keptBlocksRows(MeshData md, InOneBoundaryCommunication comm) {
    long rows = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      if (block.previousLid() >= 0) {
        rows += (long) comm.ghostFields().size() * block.neighbors().size();
      }
    }
    return rows;
  }

  private static void buildEveryPlan(Mesh mesh, InOneBoundaryCommunication comm) {
    for (String container : List.of("base", "1")) {
      for (MeshData md : mesh.meshData(container)) {
        comm.subCache(md, BoundaryType.ANY, true);
        comm.subCache(md, BoundaryType.ANY, false);
      }
    }
  }

  private static void assertSamePlan(BvarsSubCache fresh, BvarsSubCache taken) {
    assertFalse(fresh.size() == 0);
    ContainerPlansTest.assertSamePlan(fresh, taken);
    assertArrayEquals(fresh.table.crossRank, taken.table.crossRank);
    assertArrayEquals(fresh.proresOwner, taken.proresOwner);
  }
}
