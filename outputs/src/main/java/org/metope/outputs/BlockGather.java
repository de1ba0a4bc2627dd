package org.metope.outputs;

import java.nio.charset.StandardCharsets;
import org.metope.mesh.BlockDistribution;
import org.metope.comm.Communicator;
import org.metope.comm.Request;

/**
 * Brings per-block values of every rank to rank 0, in global block order, for the files rank 0
 * writes: whole arrays, for the few numbers per block of a file (the fields' values travel in
 * bounded messages, {@link FieldStream}). Ranks own contiguous, ascending ranges of global ids,
 * so concatenating the ranks' arrays in rank order puts the blocks in gid order; the result does
 * not depend on the number of ranks.
 *
 * <p>Uses its own duplicate of the run's communicator, so its messages never meet those of the
 * boundary exchange; {@link FieldStream} uses it too, on tags of its own. Collective: every rank
 * calls {@link #toRoot} in the same order.
 */
final class BlockGather {
  private static final int TAG = 0;

  private final Communicator comm;

  /** A gather over {@code comm}'s ranks (null for a single rank without a communicator). */
  BlockGather(Communicator comm) {
    this.comm = comm == null || comm.size() == 1 ? null : comm.duplicate();
  }

  /** The gather's own communicator, null for a single rank. */
  Communicator communicator() {
    return comm;
  }

  /** This rank's number (0 without a communicator). */
  int rank() {
    return comm == null ? 0 : comm.rank();
  }

  /**
   * Every rank's {@code local} values, {@code perBlock} per block, concatenated in gid order on
   * rank 0; null on the other ranks.
   */
  double[] toRoot(BlockDistribution distribution, double[] local, int perBlock) {
    if (comm == null) {
      return local;
    }
    int nranks = distribution.nranks();
    if (comm.rank() != 0) {
      if (local.length > 0) {
        comm.isend(local, 0, local.length, 0, TAG).waitFor();
      }
      return null;
    }
    double[] all = new double[distribution.totalBlocks() * perBlock];
    System.arraycopy(local, 0, all, 0, local.length);
    Request[] pending = new Request[nranks];
    for (int r = 1; r < nranks; r++) {
      int length = distribution.blockCount(r) * perBlock;
      if (length > 0) {
        pending[r] = comm.irecv(all, distribution.firstGid(r) * perBlock, length, r, TAG);
      }
    }
    for (int r = 1; r < nranks; r++) {
      if (pending[r] != null) {
        pending[r].waitFor();
      }
    }
    return all;
  }

  /**
   * Makes every rank learn whether rank 0's write succeeded: rank 0 passes its error message (null
   * for success), every rank gets it back. Collective.
   */
  String shareOutcome(String rootError) {
    if (comm == null) {
      return rootError;
    }
    byte[] text = rootError == null ? new byte[0]
        : rootError.getBytes(StandardCharsets.UTF_8);
    int[] length = {text.length};
    comm.broadcast(length, 0);
    if (length[0] == 0) {
      return null;
    }
    int[] codes = new int[length[0]];
    if (comm.rank() == 0) {
      for (int n = 0; n < text.length; n++) {
        codes[n] = text[n];
      }
    }
    comm.broadcast(codes, 0);
    byte[] back = new byte[codes.length];
    for (int n = 0; n < codes.length; n++) {
      back[n] = (byte) codes[n];
    }
    return new String(back, StandardCharsets.UTF_8);
  }
}
