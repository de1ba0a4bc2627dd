package org.metope.test.bench;

import java.util.ArrayList;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.ForwardingCommunicator;
import org.metope.comm.MessageBuffer;
import org.metope.comm.ReduceOp;
import org.metope.comm.Request;

/**
 * A {@link Communicator} that passes every call to the rank's real one and counts it in the
 * rank's {@link RankTraffic}, under the {@link TrafficKind} of this communicator.
 *
 * <p>The kind of a duplicate is read, once at set-up, from the class that asked for it:
 * {@code amr.AdaptiveRefinement} duplicates for remesh traffic, {@code outputs.BlockGather} for
 * the output gather, and {@code bvals.FieldCommunicators.create} duplicates once per boundary
 * field, then once per flux-correction field, then once per {@code ChannelKind} (boundary values,
 * flux correction) for coalesced messages, from three source lines in that order. The lines tell
 * the three loops apart: the highest is the coalesced loop, the lowest the boundary-field loop.
 * Counting adds no message and changes no payload, so a counted run computes what an uncounted
 * one does.
 */
final class CountingCommunicator extends ForwardingCommunicator {
  private static final String FIELD_COMMUNICATORS = "org.metope.bvals.channel.FieldCommunicators";

  private final RankTraffic traffic;
  private TrafficKind kind;
  /** Duplicates made by the current {@code FieldCommunicators.create} call, and their lines. */
  private final List<CountingCommunicator> pending = new ArrayList<>();
  private final List<Integer> pendingLines = new ArrayList<>();

  CountingCommunicator(Communicator delegate, RankTraffic traffic, TrafficKind kind) {
    super(delegate);
    this.traffic = traffic;
    this.kind = kind;
  }

  RankTraffic traffic() {
    return traffic;
  }

  @Override
  public Request isend(Request request, double[] array, int offset, int length, int peer,
      int tag) {
    traffic.send(kind, peer, tag, length);
    return inner().isend(request, array, offset, length, peer, tag);
  }

  @Override
  public Request isend(Request request, MessageBuffer buffer, int offset, int length, int peer,
      int tag) {
    traffic.send(kind, peer, tag, length);
    return inner().isend(request, buffer, offset, length, peer, tag);
  }

  @Override
  public double allreduce(double value, ReduceOp op) {
    traffic.collective(kind, 8);
    return inner().allreduce(value, op);
  }

  @Override
  public long allreduce(long value, ReduceOp op) {
    traffic.collective(kind, 8);
    return inner().allreduce(value, op);
  }

  @Override
  public void allreduce(double[] values, ReduceOp op) {
    traffic.collective(kind, 8L * values.length);
    inner().allreduce(values, op);
  }

  @Override
  public void allreduce(long[] values, ReduceOp op) {
    traffic.collective(kind, 8L * values.length);
    inner().allreduce(values, op);
  }

  @Override
  public void allreduce(long[] values, ReduceOp[] ops) {
    traffic.collective(kind, 8L * values.length);
    inner().allreduce(values, ops);
  }

  /** Counted as the bytes this rank receives: the whole result at the root, nothing elsewhere. */
  @Override
  public double[] gather(double[] local, int root) {
    double[] all = inner().gather(local, root);
    traffic.collective(kind, 8L * all.length);
    return all;
  }

  /** Counted as the bytes every rank receives: its own contribution times the ranks. */
  @Override
  public int[] allgather(int[] local) {
    traffic.collective(kind, 4L * local.length * size());
    return inner().allgather(local);
  }

  @Override
  public double[] allgather(double[] local) {
    traffic.collective(kind, 8L * local.length * size());
    return inner().allgather(local);
  }

  @Override
  public void broadcast(double[] data, int root) {
    traffic.collective(kind, 8L * data.length);
    inner().broadcast(data, root);
  }

  @Override
  public void broadcast(int[] data, int root) {
    traffic.collective(kind, 4L * data.length);
    inner().broadcast(data, root);
  }

  @Override
  public void barrier() {
    traffic.collective(kind, 0);
    inner().barrier();
  }

  @Override
  public Communicator duplicate() {
    StackWalker.StackFrame caller = StackWalker.getInstance().walk(frames -> frames
        .filter(f -> !f.getClassName().equals(CountingCommunicator.class.getName()))
        .findFirst().orElseThrow());
    CountingCommunicator copy = new CountingCommunicator(inner().duplicate(), traffic,
        TrafficKind.WORLD);
    String cls = caller.getClassName();
    if (cls.equals("org.metope.amr.AdaptiveRefinement")) {
      copy.kind = TrafficKind.REMESH;
    } else if (cls.equals("org.metope.outputs.BlockGather")) {
      copy.kind = TrafficKind.OUTPUT_GATHER;
    } else if (cls.equals(FIELD_COMMUNICATORS)) {
      int line = caller.getLineNumber();
      if (!pendingLines.isEmpty() && line < pendingLines.get(pendingLines.size() - 1)) {
        pending.clear();
        pendingLines.clear();
      }
      pending.add(copy);
      pendingLines.add(line);
      classifyPending();
    } else {
      throw new IllegalStateException("duplicate() from an unknown caller " + cls
          + ": teach CountingCommunicator its kind");
    }
    return copy;
  }

  /**
   * Names the duplicates of the current {@code FieldCommunicators.create} call so far; a later
   * duplicate of the same call can rename earlier ones (the flux loop's line is the highest until
   * the coalesced loop starts). A line lower than the last one starts a new call.
   */
  private void classifyPending() {
    int lowest = Integer.MAX_VALUE;
    int highest = Integer.MIN_VALUE;
    for (int line : pendingLines) {
      lowest = Math.min(lowest, line);
      highest = Math.max(highest, line);
    }
    int coalesced = 0;
    for (int i = 0; i < pending.size(); i++) {
      int line = pendingLines.get(i);
      if (line == highest && highest != lowest) {
        pending.get(i).kind = coalesced++ == 0 ? TrafficKind.BOUNDARY : TrafficKind.FLUX_CORRECTION;
      } else {
        pending.get(i).kind = line == lowest ? TrafficKind.BOUNDARY : TrafficKind.FLUX_CORRECTION;
      }
    }
  }
}
