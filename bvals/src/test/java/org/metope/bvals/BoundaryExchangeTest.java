package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.kernels.KernelKind;
import org.metope.comm.Communicator;
import org.metope.comm.DirectBufferCommunicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SteadyAllocation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

class BoundaryExchangeTest {

  private static StateDescriptor twoFields() {
    StateDescriptor pkg = new StateDescriptor("test");
    pkg.addField("a", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    pkg.addField("b", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST).shape(3).build());
    return pkg;
  }

  @Test
  void givenPartitions_thenOneLoadAndOneUnloadLaunchPerPartitionPerExchange() {
    try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(3), 
        InProcessCluster.singleRank(), twoFields())) {
      int partitions = f.mesh.meshData("base").size();
      assertEquals(3, partitions); // 8 blocks in packs of 3: 3 + 3 + 2
      f.exchange.execute();
      long loads = f.backend.launches(KernelKind.LOAD);
      long unloads = f.backend.launches(KernelKind.UNLOAD);
      for (int step = 0; step < 5; step++) {
        f.exchange.execute();
      }
      assertEquals(5L * partitions, f.backend.launches(KernelKind.LOAD) - loads);
      assertEquals(5L * partitions, f.backend.launches(KernelKind.UNLOAD) - unloads);
      // A uniform mesh has no refinement work.
      assertEquals(0, f.backend.launches(KernelKind.PROLONGATE));
    }
  }

  @Test
  void givenARelease_thenCachesAreForgottenAndBuiltAgainOnTheNextExchange() {
    try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(4),
        InProcessCluster.singleRank(), twoFields())) {
      f.exchange.execute();
      long builds = f.comm.cacheBuilds();
      f.comm.release();
      f.comm.setup(f.mesh);
      f.exchange.execute();
      assertEquals(2 * builds, f.comm.cacheBuilds());
      assertSame(f.backend, f.comm.kernels());
    }
  }

  @Test
  void givenSteadyState_thenCachesAreReusedAndNotRebuilt() {
    try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(4),
        InProcessCluster.singleRank(), twoFields())) {
      f.exchange.execute();
      long builds = f.comm.cacheBuilds();
      long reuses = f.comm.cacheReuses();
      assertEquals(4, builds); // 2 partitions x (send + receive)
      f.exchange.execute();
      assertEquals(builds, f.comm.cacheBuilds());
      assertTrue(f.comm.cacheReuses() > reuses);
    }
  }

  @Test
  void givenSteadyState_thenAnExchangeAllocatesNothing() {
    try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(4),
        InProcessCluster.singleRank(), twoFields())) {
      long allocated = SteadyAllocation.fewestBytes(200, 3, 500, f.exchange::execute);
      // 2 partitions x 2 fields x 26 channels: one 16-byte object per channel per exchange
      // would be over 800 KB in every window.
      assertTrue(allocated < 4096, "allocated " + allocated + " bytes in the quietest 500"
          + " exchanges");
    }
  }

  /**
   * With {@code direct}, the ranks' communicators prefer direct message buffers, as the MPI
   * device does: each message's buffer is made at its first message, and later exchanges
   * allocate nothing either.
   */
  @ParameterizedTest(name = "coalesce={0}, direct buffers={1}")
  @CsvSource({"true, false", "false, false", "true, true", "false, true"})
  void givenTwoRanks_thenTheExchangeAllocatesNothingOnEitherRank(boolean coalesce,
      boolean direct) {
    long[] allocated = new long[2];
    InProcessRun.run(2, inProcess -> {
      Communicator world = direct ? new DirectBufferCommunicator(inProcess) : inProcess;
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(2), world,
          twoFields(), coalesce)) {
        allocated[world.rank()] = SteadyAllocation.fewestBytes(200, 3, 250, f.exchange::execute);
      }
    });
    assertTrue(allocated[0] < 4096 && allocated[1] < 4096,
        "allocated " + allocated[0] + " and " + allocated[1] + " bytes in the quietest 250"
        + " exchanges");
  }

  @Test
  void givenSparseFieldOnOneBlock_thenNeighboursAllocateOnReceiveAndOthersGetNull() {
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 7);
    String deck = ExchangeFixture.periodic3d(-1).replace("nx1 = 16", "nx1 = 32");
    try (ExchangeFixture f = new ExchangeFixture(deck, InProcessCluster.singleRank(), pkg)) {
      MeshData md = f.mesh.meshData("base").get(0);
      int field = 0;
      // 4 x 2 x 2 blocks; allocate the field on block 0 only and put data in its interior.
      assertEquals(16, md.numBlocks());
      md.storage().allocateSparse(field, 0);
      for (int b = 1; b < md.numBlocks(); b++) {
        assertFalse(md.isAllocated(field, b));
      }
      for (int k = 2; k < 10; k++) {
        for (int j = 2; j < 10; j++) {
          for (int i = 2; i < 10; i++) {
            md.data()[md.index(field, 0, 0, k, j, i)] = 1.0;
          }
        }
      }
      f.exchange.execute();
      int allocatedBlocks = 0;
      for (int b = 0; b < md.numBlocks(); b++) {
        boolean neighbour = false;
        for (var nb : md.block(b).neighbors()) {
          neighbour |= nb.gid() == md.block(0).gid();
        }
        assertEquals(b == 0 || neighbour, md.isAllocated(field, b), "block " + b);
        allocatedBlocks += md.isAllocated(field, b) ? 1 : 0;
      }
      // Block 0 at (0,0,0) of 4x2x2 periodic blocks touches every block except those two
      // apart in x1 (x1 index 2): 16 - 4 = 12 blocks, itself included.
      assertEquals(12, allocatedBlocks);
      // A newly allocated neighbour got block 0's values in the ghosts facing it.
      MeshData after = f.mesh.meshData("base").get(0);
      int plusX = 1; // block at x1 index 1 holds block 0's values in its -x ghosts
      assertEquals(1.0, after.data()[after.index(field, plusX, 0, 5, 5, 1)]);
    }
  }

  @Test
  void givenSparseFieldBackToZero_thenItIsFreedAfterDeallocCountCycles() {
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 1);
    String deck = ExchangeFixture.periodic3d(-1) + "<parthenon/sparse>\ndealloc_count = 3\n";
    try (ExchangeFixture f = new ExchangeFixture(deck, InProcessCluster.singleRank(), pkg)) {
      MeshData md = f.mesh.meshData("base").get(0);
      md.storage().allocateSparse(0, 2);
      md.data()[md.index(0, 2, 0, 4, 4, 4)] = 1.0;
      f.comm.sparseDealloc(md);
      assertTrue(md.isAllocated(0, 2));
      md.data()[md.index(0, 2, 0, 4, 4, 4)] = 1e-20;
      for (int cycle = 0; cycle < 3; cycle++) {
        f.comm.sparseDealloc(md);
        assertTrue(md.isAllocated(0, 2), "cycle " + cycle);
        assertEquals(cycle + 1, md.storage().deallocationCount(0, 2));
      }
      f.comm.sparseDealloc(md);
      assertFalse(md.isAllocated(0, 2));
    }
  }
}
