package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.metope.bvals.channel.CommBuffer;
import org.metope.comm.InProcessRun;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/**
 * A sparse field's buffers follow its allocation: on one rank of 2 x 2 x 2 periodic blocks (26
 * channels from each block, one shared buffer each), a channel holds a buffer exactly while the
 * field is allocated on its sending block when the send is prepared.
 */
class SparseBuffersTest {
  private static final int CHANNELS_PER_BLOCK = 26;
  private static final int BLOCKS = 8;

  @Test
  void givenAllocationSpreadingAndFreed_thenSendBuffersAreTakenAndGivenBack() {
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 0);
    InProcessRun.run(1, world -> {
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(-1), world, pkg)) {
        MeshData md = f.mesh.meshData("base").get(0);
        assertEquals(BLOCKS, md.numBlocks());
        assertEquals(0, allocatedBuffers(f), "nothing allocated, no buffer");
        md.storage().allocateSparse(0, md.blockIndex(0));
        java.util.Arrays.fill(md.data(), md.dataOffset(0, 0),
            md.dataOffset(0, 0) + md.layout().blockLength(md.layout().dataInstance(0, md.container())),
            1.0);
        f.exchange.execute();
        assertEquals(CHANNELS_PER_BLOCK, allocatedBuffers(f), "block 0's sends");
        for (int b = 1; b < BLOCKS; b++) {
          assertEquals(true, md.isAllocated(0, b), "allocated on receive: block " + b);
        }
        f.exchange.execute();
        assertEquals(BLOCKS * CHANNELS_PER_BLOCK, allocatedBuffers(f), "every block's sends");
        for (int b = 1; b < BLOCKS; b++) {
          md.storage().deallocateSparse(0, md.blockIndex(b));
        }
        f.exchange.execute();
        assertEquals(CHANNELS_PER_BLOCK, allocatedBuffers(f), "block 0's sends again");
      }
    });
  }

  private static int allocatedBuffers(ExchangeFixture f) {
    int n = 0;
    for (CommBuffer b : f.comm.registry().boundaryValues().unordered()) {
      n += b.isAllocated() ? 1 : 0;
    }
    return n;
  }
}
