package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.BufferState;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelVector;
import org.metope.bvals.channel.CoalescedMessage;
import org.metope.bvals.channel.CommBuffer;
import org.metope.comm.Communicator;
import org.metope.comm.DirectBufferCommunicator;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.kernels.KernelKind;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/**
 * Whole exchanges with coalesced messages on several in-process ranks and partitions: every ghost
 * cell of a periodic mesh holds the value of the interior cell it wraps to, one message per
 * sending partition, peer and kind, sender and receiver agree on every layout, null flags of
 * sparse channels travel inside the messages, and local and remote channels share one cache.
 */
class CoalescedExchangeTest {
  private static final int N = 16;
  private static final int BLOCK = 8;

  private static StateDescriptor twoFields() {
    StateDescriptor pkg = new StateDescriptor("test");
    pkg.addField("a", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    pkg.addField("b", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST).shape(3).build());
    return pkg;
  }

  /** The value of global cell (i, j, k) of component {@code c} of field {@code f}, wrapped. */
  private static double value(int f, int c, int i, int j, int k) {
    return Math.floorMod(i, N) + 100.0 * Math.floorMod(j, N) + 10_000.0 * Math.floorMod(k, N)
        + 1e6 * c + 1e7 * f;
  }

  /** Fills interiors ({@code check = false}) or counts cells, ghosts included, that differ. */
  private static long fillOrCheck(MeshData md, boolean check) {
    int g = md.block(0).mesh().nghost();
    long wrong = 0;
    double[] data = md.data();
    for (FieldInfo field : md.block(0).mesh().resolvedPackages().fields()) {
      for (int b = 0; b < md.numBlocks(); b++) {
        MeshBlock block = md.block(b);
        long[] origin = {block.loc().lx1() * BLOCK, block.loc().lx2() * BLOCK,
            block.loc().lx3() * BLOCK};
        int lo = check ? 0 : g;
        int hi = check ? BLOCK + 2 * g : BLOCK + g;
        for (int c = 0; c < field.numComponents(); c++) {
          for (int k = lo; k < hi; k++) {
            for (int j = lo; j < hi; j++) {
              for (int i = lo; i < hi; i++) {
                double v = value(field.id(), c, (int) origin[0] + i - g,
                    (int) origin[1] + j - g, (int) origin[2] + k - g);
                int at = md.index(field.id(), b, c, k, j, i);
                if (!check) {
                  data[at] = v;
                } else if (data[at] != v) {
                  wrong++;
                }
              }
            }
          }
        }
      }
    }
    return wrong;
  }

  /**
   * With {@code direct}, the ranks' communicators hand out direct message buffers and prefer them,
   * as the MPI device does: then no message may leave from or land in a heap array (control: a
   * {@code MessageStaging} that ignores the preference sends the arena's slices and fails here).
   */
  @ParameterizedTest(name = "{0} ranks, pack_size={1}, coalesce={2}, direct buffers={3}")
  @CsvSource({"2, -1, true, false", "2, 1, true, false", "3, 2, true, false", "4, 1, true, false",
      "3, 2, false, false", "2, 1, false, false", "2, 1, true, true", "3, 2, true, true",
      "3, 2, false, true"})
  void givenRanksAndPartitions_thenEveryGhostHoldsTheCellItWrapsTo(int ranks, int packSize,
      boolean coalesce, boolean direct) {
    AtomicLong wrong = new AtomicLong(-1);
    InProcessRun.run(ranks, inProcess -> {
      DirectBufferCommunicator buffers = new DirectBufferCommunicator(inProcess);
      Communicator world = direct ? buffers : inProcess;
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(packSize), world,
          twoFields(), coalesce)) {
        List<MeshData> parts = f.mesh.meshData("base");
        for (MeshData md : parts) {
          fillOrCheck(md, false);
        }
        for (int exchange = 0; exchange < 3; exchange++) {
          f.exchange.execute();
        }
        long local = 0;
        for (MeshData md : parts) {
          local += fillOrCheck(md, true);
        }
        long total = world.allreduce(local, ReduceOp.SUM);
        if (world.rank() == 0) {
          wrong.set(total);
        }
        assertEquals(coalesce, !f.comm.registry().messages().isEmpty() || ranks == 1);
        if (direct) {
          assertEquals(0, buffers.counts().arrayMessages(), "messages of heap arrays");
          assertTrue(buffers.counts().bufferMessages() > 0, "messages of message buffers");
        }
      }
    });
    assertEquals(0, wrong.get());
  }

  @Test
  void givenASecondSetupAsAfterARemesh_thenMessagesAreRebuiltInTheSameArenaAndStillRight() {
    AtomicLong wrong = new AtomicLong(-1);
    InProcessRun.run(3, world -> {
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(2), world,
          twoFields())) {
        f.exchange.execute();
        int used = f.comm.arena().used();
        List<CoalescedMessage> before = f.comm.registry().messages();
        f.comm.setup(f.mesh);
        List<CoalescedMessage> after = f.comm.registry().messages();
        assertEquals(before.size(), after.size());
        assertEquals(used, f.comm.arena().used(), "message slices recycled, not appended");
        for (MeshData md : f.mesh.meshData("base")) {
          fillOrCheck(md, false);
        }
        f.exchange.execute();
        long local = 0;
        for (MeshData md : f.mesh.meshData("base")) {
          local += fillOrCheck(md, true);
        }
        long total = world.allreduce(local, ReduceOp.SUM);
        if (world.rank() == 0) {
          wrong.set(total);
        }
        for (CoalescedMessage m : after) {
          assertEquals(1, m.sequence(), "a new message starts its sequence again");
        }
      }
    });
    assertEquals(0, wrong.get());
  }

  @Test
  void givenThreeRanksInPacksOfOne_thenOneMessagePerSendingPartitionPeerAndKindPerExchange() {
    InProcessRun.run(3, world -> {
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(1), world,
          twoFields())) {
        int exchanges = 4;
        for (int e = 0; e < exchanges; e++) {
          f.exchange.execute();
        }
        Set<List<Integer>> sendingPairs = new HashSet<>();
        for (MeshBlock block : f.mesh.blocks()) {
          for (NeighborBlock nb : block.neighbors()) {
            if (nb.rank() != world.rank()) {
              sendingPairs.add(List.of(block.lid(), nb.rank()));
            }
          }
        }
        int senders = 0;
        for (CoalescedMessage m : f.comm.registry().messages()) {
          assertEquals(exchanges, m.sequence(), m.describe());
          if (m.group().role() == ChannelRole.SENDER) {
            senders++;
            assertTrue(sendingPairs.contains(List.of(m.group().partition(),
                m.group().peerRank())), m.describe());
          }
        }
        assertEquals(sendingPairs.size(), senders);
        for (CommBuffer b : f.comm.registry().boundaryValues().sorted()) {
          if (b.isLocal()) {
            assertNull(b.message(), b.describe());
            assertEquals(exchanges, b.sendSequence(), b.describe());
            assertEquals(exchanges, b.receiveSequence(), b.describe());
          } else {
            assertTrue(b.message() != null, b.describe());
            assertEquals(exchanges, b.role() == ChannelRole.SENDER ? b.sendSequence()
                : b.receiveSequence(), b.describe());
          }
        }
      }
    });
  }

  /** {@link FluxCorrectionTest}'s refined 2D mesh, two blocks per partition. */
  private static final String REFINED_2D = FluxCorrectionTest.DECK.replace(
      "refinement = static\n", "refinement = static\npack_size = 2\n");

  @Test
  void givenThreeRanksOfARefinedMesh_thenEverySendingMessageHasAReceivingTwinWithItsLayout() {
    StateDescriptor pkg = new StateDescriptor("flux");
    pkg.addField("u", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.WITH_FLUXES));
    InProcessRun.run(3, world -> {
      try (ExchangeFixture f = new ExchangeFixture(REFINED_2D, world, pkg)) {
        List<CoalescedMessage> mine = f.comm.registry().messages();
        int[] records = new int[mine.size() * 8];
        for (int i = 0; i < mine.size(); i++) {
          CoalescedMessage m = mine.get(i);
          long fp = (long) m.fingerprint();
          int[] r = {m.group().role().ordinal(), world.rank(), m.group().peerRank(),
              m.group().partition(), m.group().kind().ordinal(), m.length(), (int) (fp >>> 32),
              (int) fp};
          System.arraycopy(r, 0, records, i * 8, 8);
        }
        int[] all = world.allgather(records);
        List<List<Integer>> sent = new ArrayList<>();
        List<List<Integer>> received = new ArrayList<>();
        Set<Integer> kinds = new HashSet<>();
        for (int at = 0; at < all.length; at += 8) {
          boolean sender = all[at] == ChannelRole.SENDER.ordinal();
          int from = sender ? all[at + 1] : all[at + 2];
          int to = sender ? all[at + 2] : all[at + 1];
          List<Integer> layout = List.of(from, to, all[at + 3], all[at + 4], all[at + 5],
              all[at + 6], all[at + 7]);
          (sender ? sent : received).add(layout);
          kinds.add(all[at + 4]);
        }
        sent.sort((a, b) -> a.toString().compareTo(b.toString()));
        received.sort((a, b) -> a.toString().compareTo(b.toString()));
        assertEquals(sent, received);
        assertEquals(2, kinds.size(), "boundary values and flux corrections");
        assertFalse(sent.isEmpty());
      }
    });
  }

  @Test
  void givenASparseFieldOnOneBlock_thenNullFlagsInsideTheMessagesKeepOtherBlocksUnallocated() {
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 7);
    String deck = ExchangeFixture.periodic3d(2).replace("nx1 = 16", "nx1 = 32");
    AtomicLong checkedOnRankOne = new AtomicLong();
    InProcessRun.run(2, world -> {
      try (ExchangeFixture f = new ExchangeFixture(deck, world, pkg)) {
        MeshData first = f.mesh.meshData("base").get(0);
        int source = 0;
        if (world.rank() == 0) {
          first.storage().allocateSparse(0, 0);
          int g = f.mesh.nghost();
          for (int k = g; k < g + BLOCK; k++) {
            for (int j = g; j < g + BLOCK; j++) {
              for (int i = g; i < g + BLOCK; i++) {
                first.data()[first.index(0, 0, 0, k, j, i)] = 1.0;
              }
            }
          }
        }
        f.exchange.execute();
        if (world.rank() == 1) {
          for (MeshData md : f.mesh.meshData("base")) {
            for (int b = 0; b < md.numBlocks(); b++) {
              boolean neighbour = false;
              for (NeighborBlock nb : md.block(b).neighbors()) {
                neighbour |= nb.gid() == source;
              }
              assertEquals(neighbour, md.isAllocated(0, b), "gid " + md.block(b).gid());
              checkedOnRankOne.addAndGet(neighbour ? 1000 : 1);
            }
          }
        }
      }
    });
    // Block 0 of 4 x 2 x 2 periodic blocks touches all but the 4 blocks two apart in x1; rank 1
    // holds 8 blocks, of which 4 touch it and 4 do not.
    assertTrue(checkedOnRankOne.get() % 1000 > 0 && checkedOnRankOne.get() / 1000 > 0,
        "both kinds of block seen on rank 1: " + checkedOnRankOne.get());
  }

  @Test
  void givenTwoRanks_thenLocalAndRemoteChannelsShareOneCacheAndOneLaunchEachWay() {
    InProcessRun.run(2, world -> {
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(-1), world,
          twoFields())) {
        MeshData md = f.mesh.meshData("base").get(0);
        f.exchange.execute();
        ChannelVector receives = f.comm.subCache(md, BoundaryType.ANY, false).channels;
        int local = 0;
        int remote = 0;
        CoalescedMessage fromPeer = null;
        for (int p = 0; p < receives.size(); p++) {
          CommBuffer b = receives.inPostingOrder(p);
          if (b.isLocal()) {
            local++;
          } else {
            remote++;
            fromPeer = fromPeer == null ? b.message() : fromPeer;
            assertSame(fromPeer, b.message(), "the one partition of the peer sends one message");
          }
          assertEquals(BufferState.STALE, b.state());
        }
        assertTrue(local > 0 && remote > 0, "local=" + local + " remote=" + remote);
        assertEquals(1, receives.messageCount());
        long loads = f.backend.launches(KernelKind.LOAD);
        long unloads = f.backend.launches(KernelKind.UNLOAD);
        f.exchange.execute();
        assertEquals(1, f.backend.launches(KernelKind.LOAD) - loads);
        assertEquals(1, f.backend.launches(KernelKind.UNLOAD) - unloads);
        String[] dump = f.comm.describeChannels().split("\n");
        assertEquals(1 + f.comm.registry().messages().size() + f.comm.registry().size(),
            dump.length, "header, one line per message, one per channel");
      }
    });
  }
}
