package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.bvals.RankChannels;
import org.metope.comm.InProcessCluster;

/** Dumps and the channel maps. */
class ChannelRegistryTest {
  @Test
  void givenChannelsOfBothKinds_thenDumpHasAHeaderAndOneSortedLinePerChannel() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    CommBuffer later = rc.channel(new ChannelKey(2, 0, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    CommBuffer earlier = rc.channel(new ChannelKey(1, 5, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    BufferGroup fluxGroup = new BufferGroup(0, 0, ChannelKind.FLUX_CORRECTION, ChannelRole.LOCAL);
    CommBuffer flux = new CommBuffer(new ChannelSpec(new ChannelKey(0, 1, 0, 4),
        ChannelKind.FLUX_CORRECTION, 0, 0, TagMap.NO_TAG, 2, false), rc.comm,
        rc.pools.pool(fluxGroup, 2)::get);
    rc.registry.fluxCorrections().put(flux);
    later.send();
    String[] lines = rc.registry.dump().split("\n");
    assertEquals(4, lines.length);
    assertTrue(lines[0].startsWith("channels of rank 0: boundaryValues=2 fluxCorrections=1 "
        + "coalescedMessages=0; arena length="), lines[0]);
    assertEquals("  " + earlier.describe(), lines[1]);
    assertEquals("  " + later.describe(), lines[2]);
    assertTrue(lines[2].contains("state=SENDING") && lines[2].contains("sendSeq=1"), lines[2]);
    assertEquals("  " + flux.describe(), lines[3]);
  }

  @Test
  void givenChannelMap_thenKindsAndKeysAreChecked() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    CommBuffer b = rc.channel(new ChannelKey(1, 2, 0, 13), 0, 0, TagMap.NO_TAG, 4, false);
    ChannelMap map = rc.registry.boundaryValues();
    assertThrows(IllegalArgumentException.class, () -> map.put(b));
    assertThrows(IllegalArgumentException.class, () -> rc.registry.fluxCorrections().put(b));
    assertEquals(b, map.require(b.key()));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> map.require(new ChannelKey(9, 9, 0, 0)));
    assertTrue(e.getMessage().contains("key=ChannelKey[senderGid=9"), e.getMessage());
    ObjectPool<BufferSlice> pool = rc.pools.pool(b.buffer().group(), 4);
    assertEquals(1, pool.inUse());
    map.clear();
    assertEquals(0, map.size());
    assertEquals(0, pool.inUse(), "clear frees the buffers");
  }
}
