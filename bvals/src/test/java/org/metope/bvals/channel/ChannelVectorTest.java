package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.bvals.MessageRig;
import org.metope.bvals.RankChannels;
import org.metope.bvals.ScriptedCommunicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;

/** Index maps between cache and posting order, and the loops over a vector. */
class ChannelVectorTest {
  private static List<CommBuffer> localChannels(RankChannels rc, int n) {
    List<CommBuffer> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      list.add(rc.channel(new ChannelKey(i, i + 1, 0, 13), 0, 0, TagMap.NO_TAG, 4, false));
    }
    return list;
  }

  @Test
  void givenRandomOrder_thenBothIndexMapsAreInverseAndMatchTheCacheList() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    List<CommBuffer> cache = localChannels(rc, 9);
    ChannelVector v = new ChannelVector(cache, PostingOrder.random(11), 2);
    int[] expected = PostingOrder.random(11).permutation(9, 2);
    for (int p = 0; p < v.size(); p++) {
      assertEquals(expected[p], v.cacheIndexAt(p));
      assertEquals(p, v.postingIndexOf(v.cacheIndexAt(p)));
      assertSame(cache.get(v.cacheIndexAt(p)), v.inPostingOrder(p));
    }
    for (int c = 0; c < cache.size(); c++) {
      assertSame(cache.get(c), v.inCacheOrder(c));
    }
  }

  @Test
  void givenSameRankChannelsInBothVectors_thenTheLoopsWalkAStage() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    List<CommBuffer> cache = localChannels(rc, 3);
    ChannelVector sends = new ChannelVector(cache, PostingOrder.cacheOrder(), 0);
    ChannelVector receives = new ChannelVector(cache, PostingOrder.random(3), 0);
    assertTrue(receives.startReceives());
    assertTrue(sends.allAvailableForWrite());
    assertFalse(receives.receiveAll());
    cache.get(0).send();
    cache.get(2).sendNull();
    assertFalse(receives.receiveAll(), "one still missing");
    assertEquals(BufferState.RECEIVED, cache.get(0).state(), "the others were received anyway");
    cache.get(1).send();
    assertFalse(sends.allAvailableForWrite());
    assertTrue(receives.receiveAll());
    receives.staleAll();
    assertTrue(sends.allAvailableForWrite());
  }

  @Test
  void givenACheckedVector_thenSendAllSendsDataOrNullByTheColumnsOnce() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    List<CommBuffer> cache = localChannels(rc, 3);
    for (CommBuffer b : cache) {
      b.allocate();
    }
    ChannelVector sends = new ChannelVector(cache, PostingOrder.random(5), 0);
    int[] allocated = {1, 0, 1};
    int[] nonzero = {1, 1, 0};
    assertThrows(IllegalStateException.class, () -> sends.sendAll(allocated, nonzero, true),
        "no allAvailableForWrite() yet");
    assertTrue(sends.allAvailableForWrite());
    sends.sendAll(allocated, nonzero, true);
    assertEquals(BufferState.SENDING, cache.get(0).state());
    assertEquals(BufferState.SENDING_NULL, cache.get(1).state(), "unallocated");
    assertEquals(BufferState.SENDING_NULL, cache.get(2).state(), "all zero");
    assertThrows(IllegalStateException.class, () -> sends.sendAll(allocated, nonzero, true),
        "the check is spent by one send");
    assertFalse(sends.allAvailableForWrite());
    assertThrows(IllegalStateException.class, () -> sends.sendAll(allocated, nonzero, true),
        "a false check does not allow a send");
  }

  @Test
  void givenSameRankChannelsReceivedButNotStaled_thenStartReceivesThrows() {
    RankChannels rc = new RankChannels(InProcessCluster.singleRank());
    List<CommBuffer> cache = localChannels(rc, 2);
    ChannelVector receives = new ChannelVector(cache, PostingOrder.cacheOrder(), 0);
    assertTrue(receives.startReceives());
    cache.get(0).send();
    cache.get(1).sendNull();
    assertTrue(receives.receiveAll());
    assertThrows(IllegalStateException.class, receives::startReceives);
    receives.staleAll();
    assertEquals(BufferState.STALE, cache.get(0).state());
    assertEquals(BufferState.STALE, cache.get(1).state());
    assertTrue(receives.startReceives(), "staled: the next stage may start");
    assertThrows(IllegalStateException.class, receives::staleAll, "nothing received to stale");
  }

  @Test
  void givenSameAndCrossRankChannelsInRandomOrder_thenCrossRankFollowsTheCacheIndex() {
    RankChannels rc = new RankChannels(new ScriptedCommunicator(0, 2));
    List<CommBuffer> cache = new ArrayList<>();
    int[] expected = new int[8];
    for (int i = 0; i < expected.length; i++) {
      int receiver = i % 3 == 1 ? 1 : 0;
      cache.add(rc.channel(new ChannelKey(i, i + 1, 0, 13), 0, receiver,
          receiver == 0 ? TagMap.NO_TAG : i, 4, false));
      expected[i] = receiver;
    }
    ChannelVector v = new ChannelVector(cache, PostingOrder.random(7), 1);
    int[] crossRank = new int[expected.length];
    v.crossRank(crossRank);
    assertArrayEquals(expected, crossRank, "1 for the sends to rank 1, by cache index");
  }

  @Test
  void givenAMessageOnItsWay_whenReceiveAll_thenThePassEndsBeforeTheOtherBuffers() {
    InProcessRun.run(2, world -> {
      MessageRig rig = new MessageRig(world, new int[] {4, 5}, MessageRig.ELEMENT);
      List<CommBuffer> cache = new ArrayList<>();
      CommBuffer local = null;
      if (world.rank() == 1) {
        local = rig.rank.channel(new ChannelKey(20, 21, 0, 13), 1, 1, TagMap.NO_TAG, 3, false);
        cache.add(local);
        cache.addAll(rig.channels);
      }
      ChannelVector receives = new ChannelVector(cache, PostingOrder.cacheOrder(), 0);
      if (world.rank() == 1) {
        assertTrue(receives.startReceives());
        local.send();
        assertFalse(receives.receiveAll());
        assertEquals(BufferState.SENDING, local.state(), "not walked while the message is away");
      }
      world.barrier();
      if (world.rank() == 0) {
        for (CommBuffer b : rig.channels) {
          b.send();
        }
      }
      world.barrier();
      if (world.rank() == 1) {
        while (!receives.receiveAll()) {
          Thread.onSpinWait();
        }
        assertEquals(BufferState.RECEIVED, local.state());
        for (CommBuffer b : rig.channels) {
          assertEquals(BufferState.RECEIVED, b.state());
        }
      }
    });
  }
}
