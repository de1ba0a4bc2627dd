package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.metope.bvals.CommBufferTransitionsTest;
import org.metope.bvals.ScriptedCommunicator;

/**
 * What {@link CommBuffer} asks of the communicator and of its pool: the slice and tag of each
 * message, null messages, sparse probing, freeing and allocation, in-flight accounting and
 * sequence numbers. Transition legality is covered by {@link CommBufferTransitionsTest}.
 */
class CommBufferTest {
  private static final int LENGTH = CommBufferTransitionsTest.LENGTH;

  private static CommBufferTransitionsTest.Fixture fixture(String role) {
    return new CommBufferTransitionsTest.Fixture(role);
  }

  @Test
  void givenSender_whenSend_thenTheSliceGoesToTheReceiverRankWithTheChannelTag() {
    var f = fixture("SENDER");
    BufferSlice slice = f.buffer.buffer();
    f.buffer.send();
    var r = f.request();
    assertTrue(r.send);
    assertSame(f.arena.array(), r.array);
    assertEquals(slice.offset(), r.offset);
    assertEquals(LENGTH, r.count);
    assertEquals(1, r.peer);
    assertEquals(7, r.tag);
    assertEquals(1, f.buffer.sendSequence());
  }

  @Test
  void givenSender_whenSendNull_thenAZeroLengthMessageIsSentAndTheBufferStaysAllocated() {
    var f = fixture("SENDER");
    f.buffer.sendNull();
    assertEquals(0, f.request().count);
    assertEquals(BufferState.SENDING_NULL, f.buffer.state());
    assertTrue(f.buffer.isAllocated());
    assertEquals(0, f.arena.slicesInFlight());
  }

  @Test
  void givenUnallocatedSender_whenSend_thenItSendsNull() {
    var f = fixture("SENDER");
    f.buffer.free();
    f.buffer.send();
    assertEquals(BufferState.SENDING_NULL, f.buffer.state());
    assertEquals(0, f.request().count);
  }

  @Test
  void givenCrossRankChannels_thenEachMakesItsRequestAtItsFirstMessageAndKeepsIt() {
    var sender = fixture("SENDER");
    var receiver = fixture("RECEIVER");
    assertEquals(0, sender.comm.requests.size(), "a coalesced member never messages alone");
    assertEquals(0, receiver.comm.requests.size());
    sender.buffer.send();
    sender.request().complete(LENGTH);
    assertTrue(sender.buffer.isAvailableForWrite());
    sender.buffer.send();
    assertTrue(receiver.buffer.tryStartReceive());
    assertEquals(1, sender.comm.requests.size(), "one request for every message of the channel");
    assertEquals(1, receiver.comm.requests.size());
  }

  @Test
  void givenSendInFlight_thenTheArenaCountsItUntilTheSenderSeesItComplete() {
    var f = fixture("SENDER");
    f.buffer.send();
    assertEquals(1, f.arena.slicesInFlight());
    assertTrue(f.buffer.isInFlight());
    f.request().complete(LENGTH);
    assertEquals(1, f.arena.slicesInFlight(), "completion is learned only by testing");
    assertTrue(f.buffer.isAvailableForWrite());
    assertEquals(0, f.arena.slicesInFlight());
    assertFalse(f.buffer.isInFlight());
  }

  @Test
  void givenSendInFlight_whenAwaitSend_thenItCompletesAndTheChannelIsStale() {
    var f = fixture("SENDER");
    f.buffer.send();
    f.buffer.awaitSend();
    assertEquals(BufferState.STALE, f.buffer.state());
    assertEquals(0, f.arena.slicesInFlight());
  }

  @Test
  void givenReceiver_whenReceivePosted_thenItTargetsTheFullSliceAndTheArenaCountsIt() {
    var f = fixture("RECEIVER");
    assertFalse(f.buffer.isAllocated());
    assertTrue(f.buffer.tryStartReceive());
    var r = f.request();
    assertFalse(r.send);
    assertEquals(f.buffer.buffer().offset(), r.offset);
    assertEquals(LENGTH, r.count);
    assertEquals(0, r.peer);
    assertEquals(7, r.tag);
    assertEquals(1, f.arena.slicesInFlight());
    assertTrue(f.buffer.tryStartReceive());
    assertEquals(1, f.comm.receives, "a posted receive is not posted again");
    r.complete(LENGTH);
    assertTrue(f.buffer.tryReceive());
    assertEquals(0, f.arena.slicesInFlight());
    assertEquals(1, f.buffer.receiveSequence());
  }

  @Test
  void givenReceiver_whenAMessageShorterThanTheBufferArrives_thenMisuseNamesItsLength() {
    var f = fixture("RECEIVER");
    f.buffer.tryStartReceive();
    f.request().complete(LENGTH - 3);
    IllegalStateException e = assertThrows(IllegalStateException.class, f.buffer::tryReceive);
    assertTrue(e.getMessage().contains("messageLength=5"), e.getMessage());
  }

  @Test
  void givenSparseReceiver_whenNothingArrived_thenNothingIsPostedOrAllocated() {
    var f = fixture("SPARSE_RECEIVER");
    assertFalse(f.buffer.tryStartReceive());
    assertFalse(f.buffer.tryReceive());
    assertEquals(2, f.comm.probes);
    assertEquals(0, f.comm.receives);
    assertFalse(f.buffer.isAllocated());
  }

  @Test
  void givenAllocatedSparseReceiver_whenNullArrives_thenItsBufferGoesBackToThePool() {
    var f = fixture("SPARSE_RECEIVER");
    ObjectPool<BufferSlice> pool = f.pools.pool(
        new BufferGroup(0, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.RECEIVER), LENGTH);
    f.buffer.allocate();
    assertEquals(1, pool.inUse());
    f.comm.probeAnswer = 0;
    assertTrue(f.buffer.tryStartReceive());
    assertFalse(f.buffer.isAllocated());
    assertEquals(0, pool.inUse());
    assertEquals(1, pool.free());
    assertEquals(0, f.request().count, "the null receive has no capacity");
    f.request().complete(0);
    assertTrue(f.buffer.tryReceive());
    assertEquals(BufferState.RECEIVED_NULL, f.buffer.state());
  }

  @Test
  void givenSparseReceiver_whenDataArrive_thenItAllocatesBeforePostingTheReceive() {
    var f = fixture("SPARSE_RECEIVER");
    f.comm.probeAnswer = LENGTH;
    assertTrue(f.buffer.tryStartReceive());
    assertTrue(f.buffer.isAllocated());
    assertEquals(f.buffer.buffer().offset(), f.request().offset);
    assertEquals(LENGTH, f.request().count);
  }

  @Test
  void givenSparseReceiver_whenTheProbedLengthDiffersFromTheBuffer_thenMisuse() {
    var f = fixture("SPARSE_RECEIVER");
    f.comm.probeAnswer = LENGTH + 1;
    IllegalStateException e =
        assertThrows(IllegalStateException.class, f.buffer::tryStartReceive);
    assertTrue(e.getMessage().contains("messageLength=9"), e.getMessage());
  }

  @Test
  void givenLocalChannel_whenCycled_thenBothSequencesCountTheStagesAndNothingIsSent() {
    var f = fixture("LOCAL");
    for (int stage = 1; stage <= 5; stage++) {
      assertTrue(f.buffer.isAvailableForWrite());
      if (stage % 2 == 0) {
        f.buffer.sendNull();
      } else {
        f.buffer.send();
      }
      assertTrue(f.buffer.tryStartReceive());
      assertTrue(f.buffer.tryReceive());
      f.buffer.stale();
      assertEquals(stage, f.buffer.sendSequence());
      assertEquals(stage, f.buffer.receiveSequence());
    }
    assertEquals(0, f.comm.sends + f.comm.receives + f.comm.probes);
    assertTrue(f.comm.requests.isEmpty(), "a same-rank channel needs no request");
  }

  @Test
  void givenLocalChannel_thenTheReceiverReadsWhatTheSenderWroteInTheSharedSlice() {
    var f = fixture("LOCAL");
    BufferSlice s = f.buffer.buffer();
    for (int i = 0; i < LENGTH; i++) {
      s.array()[s.offset() + i] = 10.0 + i;
    }
    f.buffer.send();
    assertTrue(f.buffer.tryReceive());
    BufferSlice r = f.buffer.buffer();
    for (int i = 0; i < LENGTH; i++) {
      assertEquals(10.0 + i, r.array()[r.offset() + i]);
    }
  }

  @Test
  void givenAllocatorOfTheWrongLength_whenAllocate_thenMisuseAndTheSliceIsReturned() {
    BufferArena arena = new BufferArena();
    ObjectPool<BufferSlice> pool = new BufferPools(arena)
        .pool(new BufferGroup(0, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.LOCAL), 3);
    CommBuffer b = new CommBuffer(new ChannelSpec(new ChannelKey(0, 0, 0, 13),
        ChannelKind.BOUNDARY_VALUES, 0, 0, TagMap.NO_TAG, 4, false),
        new ScriptedCommunicator(0, 1), pool::get);
    IllegalStateException e = assertThrows(IllegalStateException.class, b::allocate);
    assertTrue(e.getMessage().contains("sliceLength=3"), e.getMessage());
    assertEquals(0, pool.inUse());
    assertFalse(b.isAllocated());
  }

  @Test
  void givenChannelBetweenOtherRanks_whenConstructed_thenRejected() {
    ChannelSpec spec = new ChannelSpec(new ChannelKey(0, 1, 0, 14), ChannelKind.BOUNDARY_VALUES,
        1, 2, 0, 4, false);
    BufferPools pools = new BufferPools(new BufferArena());
    ObjectPool<BufferSlice> pool =
        pools.pool(new BufferGroup(1, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER), 4);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CommBuffer(spec, new ScriptedCommunicator(0, 3), pool::get));
    assertTrue(e.getMessage().contains("rank=0, senderRank=1, receiverRank=2"), e.getMessage());
  }

  @Test
  void givenFreedBuffer_thenReallocationReusesTheSlice() {
    var f = fixture("LOCAL");
    BufferSlice first = f.buffer.buffer();
    f.buffer.free();
    assertFalse(f.buffer.isAllocated());
    f.buffer.allocate();
    assertSame(first, f.buffer.buffer());
  }

  @Test
  void givenChannel_thenDescribeNamesEveryField() {
    var f = fixture("SENDER");
    f.buffer.send();
    assertEquals("BOUNDARY_VALUES ChannelKey[senderGid=3, receiverGid=5, fieldId=2, element=4]"
        + " role=SENDER state=SENDING peer=1 tag=7 length=8 sparse=false allocated=true"
        + " inFlight=true sendSeq=1 recvSeq=0", f.buffer.describe());
  }
}
