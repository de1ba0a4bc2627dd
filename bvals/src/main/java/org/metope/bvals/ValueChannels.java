package org.metope.bvals;

import java.util.List;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelMap;
import org.metope.bvals.channel.CommBuffer;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.forest.NeighborIndex;

/**
 * The boundary-value channels of a rank's blocks in the order cache builds walk them: per local
 * block, per ghost-filled field (its index in the exchanged list), per neighbour (its index in the
 * block's list), the channel the block sends on and the one it receives on. {@link ChannelBuilder}
 * fills it when it creates the channels, so a cache build reads each channel from an array instead
 * of looking its key up in the {@link ChannelMap} (up to three lookups per boundary at every
 * remesh).
 */
final class ValueChannels {
  /** Per block lid, {@code field * neighbours + neighbour}. */
  private final CommBuffer[][] send;
  private final CommBuffer[][] receive;
  /**
   * Per block lid, per element (0 to 26), the first index of its neighbour entries through that
   * element and one past the last: a block's entries come grouped by element.
   */
  private final int[][] entries;

  ValueChannels(List<MeshBlock> blocks, int fields) {
    send = new CommBuffer[blocks.size()][];
    receive = new CommBuffer[blocks.size()][];
    entries = new int[blocks.size()][];
    for (int lid = 0; lid < blocks.size(); lid++) {
      addBlock(lid, blocks.get(lid).neighbors(), fields);
    }
  }

  /**
   * Block {@code lid}'s arrays: a method per block so that the JIT compiles it, as {@link
   * #resolveLocal(MeshBlock, List, int, int, int[], ChannelMap)} says.
   */
  private void addBlock(int lid, List<NeighborBlock> neighbors, int fields) {
    int boundaries = fields * neighbors.size();
    send[lid] = new CommBuffer[boundaries];
    receive[lid] = new CommBuffer[boundaries];
    entries[lid] = entriesByElement(neighbors);
  }

  /** Where block {@code lid}'s channels with neighbour {@code n} for field {@code field} sit. */
  private static int slot(MeshBlock block, int field, int n) {
    return slot(block.neighbors().size(), field, n);
  }

  /** The same for a block with {@code neighbors} neighbours. */
  private static int slot(int neighbors, int field, int n) {
    return field * neighbors + n;
  }

  void put(MeshBlock block, int field, int n, CommBuffer sending, CommBuffer receiving) {
    send[block.lid()][slot(block, field, n)] = sending;
    receive[block.lid()][slot(block, field, n)] = receiving;
  }

  /**
   * Fills in the receiving side of same-rank channels: the neighbour's sending channel back to
   * the block, found in the neighbour's own list (the entry with the block's gid and the reversed
   * element), or by key in {@code map} should the lists ever disagree.
   */
  void resolveLocal(List<MeshBlock> blocks, int fields, int[] fieldIds, ChannelMap map) {
    if (fields == 0 || blocks.isEmpty()) {
      return;
    }
    int firstGid = blocks.get(0).gid();
    for (int lid = 0; lid < blocks.size(); lid++) {
      resolveLocal(blocks.get(lid), blocks, firstGid, fields, fieldIds, map);
    }
  }

  /**
   * The same for one block. A method per block rather than a loop body: the caller runs once per
   * remesh, too rarely for the JIT to compile it, so its loops stay interpreted, while this
   * method, called for every block of every remesh, is compiled within a few remeshes.
   */
  private void resolveLocal(MeshBlock block, List<MeshBlock> blocks, int firstGid, int fields,
      int[] fieldIds, ChannelMap map) {
    List<NeighborBlock> neighbors = block.neighbors();
    int count = neighbors.size();
    CommBuffer[] blockReceive = receive[block.lid()];
    for (int n = 0; n < count; n++) {
      if (blockReceive[n] != null) {
        continue; // from another rank: made with the block's own channels
      }
      NeighborBlock nb = neighbors.get(n);
      MeshBlock other = blocks.get(nb.gid() - firstGid);
      int back = entryOf(other, block.gid(), nb.element().reverse().index());
      CommBuffer[] otherSend = send[other.lid()];
      int otherCount = other.neighbors().size();
      for (int f = 0; f < fields; f++) {
        blockReceive[slot(count, f, n)] = back >= 0
            ? otherSend[slot(otherCount, f, back)]
            : map.require(new ChannelKey(nb.gid(), block.gid(), fieldIds[f],
                nb.element().reverse().index()));
      }
    }
  }

  /** {@link #entries} of one block: {@code [2e]} first, {@code [2e + 1]} one past the last. */
  private static int[] entriesByElement(List<NeighborBlock> neighbors) {
    int[] range = new int[2 * NeighborIndex.COUNT];
    for (int m = neighbors.size() - 1; m >= 0; m--) {
      int e = neighbors.get(m).element().index();
      if (range[2 * e + 1] == 0) {
        range[2 * e + 1] = m + 1;
      }
      range[2 * e] = m;
    }
    return range;
  }

  /** The index of {@code other}'s entry for block {@code gid} through {@code element}, or -1. */
  private int entryOf(MeshBlock other, int gid, int element) {
    int[] range = entries[other.lid()];
    List<NeighborBlock> neighbors = other.neighbors();
    for (int m = range[2 * element]; m < range[2 * element + 1]; m++) {
      if (neighbors.get(m).gid() == gid) {
        return m;
      }
    }
    return -1;
  }

  /** The channel {@code block} sends ({@code sender}) or receives on with neighbour {@code n}. */
  CommBuffer channel(MeshBlock block, int field, int n, boolean sender) {
    return (sender ? send : receive)[block.lid()][slot(block, field, n)];
  }
}
