package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.bvals.RankChannels;
import org.metope.bvals.ScriptedCommunicator;
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
  }

  @Test
  void givenSendInFlight_whenRetire_thenItWaitsForTheSendOnce() {
    RankChannels rc = new RankChannels(new ScriptedCommunicator(0, 2));
    CommBuffer sender = rc.channel(new ChannelKey(1, 2, 0, 13), 0, 1, 7, 4, false);
    sender.send();
    assertEquals(1, rc.arena.slicesInFlight());
    rc.registry.retire();
    assertEquals(0, rc.arena.slicesInFlight(), "retire waits for what is still in flight");
    assertEquals(BufferState.STALE, sender.state());
  }

  @Test
  void givenSendsAwaited_whenRetire_thenNothingIsLeftToWaitFor() {
    ScriptedCommunicator comm = new ScriptedCommunicator(0, 2);
    RankChannels rc = new RankChannels(comm);
    CommBuffer sender = rc.channel(new ChannelKey(1, 2, 0, 13), 0, 1, 7, 4, false);
    sender.sendNull();
    rc.registry.awaitSends();
    assertTrue(comm.requests.get(0).complete, "awaitSends waits for null sends too");
    assertEquals(BufferState.STALE, sender.state());
    rc.registry.retire();
    assertEquals(0, rc.arena.slicesInFlight());
  }

  @Test
  void givenReceivePosted_whenRetire_thenItRefuses() {
    RankChannels rc = new RankChannels(new ScriptedCommunicator(1, 2));
    CommBuffer receiver = rc.channel(new ChannelKey(0, 2, 0, 13), 0, 1, 7, 4, false);
    assertTrue(receiver.tryStartReceive());
    IllegalStateException e = assertThrows(IllegalStateException.class, rc.registry::retire);
    assertTrue(e.getMessage().contains("slicesInFlight=1"), e.getMessage());
  }
}
