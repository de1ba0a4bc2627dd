package org.metope.outputs;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.IntPredicate;
import org.metope.comm.Communicator;
import org.metope.comm.Request;
import org.metope.mesh.BlockDistribution;

/**
 * Brings the field values of every rank's blocks to rank 0 in global block order, in messages of
 * bounded size, for rank 0 to write as they arrive: no rank ever holds more than a few messages of
 * field values, whatever the size of the mesh. Used where some rank cannot open rank 0's file;
 * otherwise every rank writes its own values ({@link SharedFileWrite}).
 *
 * <p>The values of one output form one sequence of chunks: for each variable in order, for each
 * rank in order, that rank's blocks in runs of at most {@code messageBytes} (at least one block).
 * Ranks own contiguous, ascending ranges of global ids, so each variable's chunks come in gid
 * order. Rank 0 packs its own chunks straight from its storage; for the other ranks' chunks it
 * keeps {@link #WINDOW} receives posted ahead and sends the owner a zero-length credit for each. A
 * rank sends a chunk only once its credit has come, so at most {@code WINDOW} chunks are in flight
 * (a transport that buffers sends, as the in-process one does, would otherwise collect every
 * rank's values in rank 0's inbox), and rank 0 writes one chunk while the next ones travel.
 *
 * <p>Collective over the ranks of the communicator given ({@link BlockGather}'s duplicate, on tags
 * of its own): rank 0 calls {@link #receive}, every other rank {@link #send}, with the same
 * variables in the same order.
 */
final class FieldStream {
  /** The default bound on one message's values, in bytes. */
  static final int MESSAGE_BYTES = 1 << 20;
  /** Chunks of other ranks that rank 0 has asked for and not yet written. */
  static final int WINDOW = 4;
  private static final int TAG_DATA = 1;
  private static final int TAG_CREDIT = 2;
  private static final double[] NONE = new double[0];

  /** Packs the values of {@code variable} on local block {@code lid} into {@code into[at...]}. */
  @FunctionalInterface
  interface BlockPacker {
    void pack(OutputVariable variable, int lid, double[] into, int at);
  }

  /** Takes rank 0's values of variable number {@code variable}, chunk by chunk in gid order. */
  @FunctionalInterface
  interface ChunkSink {
    void accept(int variable, double[] values, int length) throws IOException;
  }

  private final Communicator comm;
  private final int messageValues;
  private int largestBuffer;

  /**
   * A stream over {@code comm} (null for a single rank) whose messages hold at most {@code
   * messageBytes} of values, or one block's where a block holds more.
   */
  FieldStream(Communicator comm, int messageBytes) {
    this.comm = comm;
    this.messageValues = Math.max(1, messageBytes / Double.BYTES);
  }

  /**
   * The length of the largest array of values this rank has allocated to move or write values
   * (a test hook: it must not grow with the mesh).
   */
  int largestBuffer() {
    return largestBuffer;
  }

  /**
   * On rank 0: hands every variable's values of every block, in gid order, to {@code sink}. After
   * a failure of {@code sink} the rest is received and dropped, so that the other ranks are
   * released, then the failure is thrown.
   */
  void receive(BlockDistribution distribution, List<OutputVariable> variables,
      BlockPacker packer, ChunkSink sink) throws IOException {
    Plan plan = new Plan(distribution, variables);
    double[] own = allocate(plan.largestChunk());
    ArrayDeque<Slot> inFlight = new ArrayDeque<>();
    Chunks toPost = plan.chunks(rank -> rank != 0);
    for (int n = 0; n < WINDOW && toPost.next(); n++) {
      inFlight.add(post(new Slot(allocate(plan.largestChunk())), toPost));
    }
    Chunks all = plan.chunks(rank -> true);
    IOException failure = null;
    while (all.next()) {
      int length = all.count * variables.get(all.variable).valuesPerBlock();
      double[] values = own;
      Slot slot = null;
      if (all.rank == 0) {
        if (failure == null) {
          plan.pack(packer, all, own);
        }
      } else {
        slot = inFlight.remove();
        slot.receive.waitFor();
        if (slot.variable != all.variable || slot.rank != all.rank
            || slot.receive.length() != length) {
          throw new IllegalStateException("output stream out of order: expected variable="
              + all.variable + " rank=" + all.rank + " length=" + length + ", got variable="
              + slot.variable + " rank=" + slot.rank + " length=" + slot.receive.length());
        }
        values = slot.buffer;
      }
      if (failure == null) {
        try {
          sink.accept(all.variable, values, length);
        } catch (IOException e) {
          failure = e;
        }
      }
      if (slot != null && toPost.next()) {
        inFlight.add(post(slot, toPost));
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** On every rank but 0: sends this rank's values of every variable, as rank 0 asks for them. */
  void send(BlockDistribution distribution, List<OutputVariable> variables, BlockPacker packer) {
    Plan plan = new Plan(distribution, variables);
    int me = comm.rank();
    Chunks mine = plan.chunks(rank -> rank == me);
    double[][] buffers = {allocate(plan.largestChunk()), allocate(plan.largestChunk())};
    Request[] sends = {comm.newRequest(), comm.newRequest()};
    Request credit = comm.newRequest();
    for (int n = 0; mine.next(); n++) {
      int b = n % 2;
      if (sends[b].isActive()) {
        sends[b].waitFor();
      }
      plan.pack(packer, mine, buffers[b]);
      comm.irecv(credit, NONE, 0, 0, 0, TAG_CREDIT).waitFor();
      int length = mine.count * variables.get(mine.variable).valuesPerBlock();
      comm.isend(sends[b], buffers[b], 0, length, 0, TAG_DATA);
    }
    for (Request send : sends) {
      if (send.isActive()) {
        send.waitFor();
      }
    }
  }

  private double[] allocate(int length) {
    largestBuffer = Math.max(largestBuffer, length);
    return new double[length];
  }

  /** Posts the receive of {@code chunk} into {@code slot} and sends its owner the credit. */
  private Slot post(Slot slot, Chunks chunk) {
    slot.variable = chunk.variable;
    slot.rank = chunk.rank;
    int length = chunk.count * chunk.perBlock();
    comm.irecv(slot.receive, slot.buffer, 0, length, chunk.rank, TAG_DATA);
    if (slot.credit.isActive()) {
      slot.credit.waitFor();
    }
    comm.isend(slot.credit, NONE, 0, 0, chunk.rank, TAG_CREDIT);
    return slot;
  }

  /** A receive buffer of rank 0 with the chunk it is posted for. */
  private final class Slot {
    final double[] buffer;
    final Request receive = comm.newRequest();
    final Request credit = comm.newRequest();
    int variable;
    int rank;

    Slot(double[] buffer) {
      this.buffer = buffer;
    }
  }

  /** How the values of one output are cut into chunks; the same on every rank. */
  private final class Plan {
    final BlockDistribution distribution;
    final List<OutputVariable> variables;
    final int[] blocksPerChunk;

    Plan(BlockDistribution distribution, List<OutputVariable> variables) {
      this.distribution = distribution;
      this.variables = variables;
      int mostBlocks = 0;
      for (int r = 0; r < distribution.nranks(); r++) {
        mostBlocks = Math.max(mostBlocks, distribution.blockCount(r));
      }
      blocksPerChunk = new int[variables.size()];
      for (int v = 0; v < blocksPerChunk.length; v++) {
        int perBlock = variables.get(v).valuesPerBlock();
        blocksPerChunk[v] = Math.max(1, Math.min(mostBlocks, messageValues / perBlock));
      }
    }

    /** The most values one chunk holds. */
    int largestChunk() {
      int most = 0;
      for (int v = 0; v < blocksPerChunk.length; v++) {
        most = Math.max(most, blocksPerChunk[v] * variables.get(v).valuesPerBlock());
      }
      return most;
    }

    Chunks chunks(IntPredicate ranks) {
      return new Chunks(this, ranks);
    }

    /** Packs the local blocks of {@code chunk} into {@code into}, one after the other. */
    void pack(BlockPacker packer, Chunks chunk, double[] into) {
      OutputVariable v = variables.get(chunk.variable);
      int perBlock = v.valuesPerBlock();
      for (int b = 0; b < chunk.count; b++) {
        packer.pack(v, chunk.first + b, into, b * perBlock);
      }
    }
  }

  /**
   * Walks the chunks of a plan in stream order, those of the ranks {@code ranks} accepts: after
   * {@link #next} returned true, the chunk is {@code count} blocks of {@code variable} on {@code
   * rank} from its local block {@code first}.
   */
  private static final class Chunks {
    private final Plan plan;
    private final IntPredicate ranks;
    int variable;
    int rank;
    int first;
    int count;

    Chunks(Plan plan, IntPredicate ranks) {
      this.plan = plan;
      this.ranks = ranks;
    }

    int perBlock() {
      return plan.variables.get(variable).valuesPerBlock();
    }

    boolean next() {
      first += count;
      count = 0;
      while (variable < plan.variables.size()) {
        int owned = plan.distribution.blockCount(rank);
        if (first < owned && ranks.test(rank)) {
          count = Math.min(plan.blocksPerChunk[variable], owned - first);
          return true;
        }
        first = 0;
        if (++rank == plan.distribution.nranks()) {
          rank = 0;
          variable++;
        }
      }
      return false;
    }
  }
}
