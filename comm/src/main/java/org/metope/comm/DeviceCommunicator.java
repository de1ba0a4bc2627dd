package org.metope.comm;

import java.time.Duration;

/**
 * The part every communicator of a message-passing device (MPJ Express, MPI) shares: rank and
 * size from the rank's {@link DeviceWorld}, and each collective's argument and abort checks
 * before the device's {@link DeviceCollectives} run it. A device adds its point-to-point calls,
 * its description and {@link #duplicate()}.
 */
public abstract class DeviceCommunicator implements Communicator {
  private final DeviceWorld world;
  private final DeviceCollectives collectives;

  protected DeviceCommunicator(DeviceWorld world, DeviceCollectives collectives) {
    this.world = world;
    this.collectives = collectives;
  }

  @Override
  public final int rank() {
    return world.rank();
  }

  @Override
  public final int size() {
    return world.size();
  }

  @Override
  public final void allreduce(double[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    world.checkAbort();
    collectives.allreduce(values, op);
  }

  @Override
  public final void allreduce(long[] values, ReduceOp op) {
    CommArguments.checkNotNull(values, "values");
    CommArguments.checkNotNull(op, "op");
    world.checkAbort();
    collectives.allreduce(values, op);
  }

  @Override
  public final void allreduce(long[] values, ReduceOp[] ops) {
    CommArguments.checkOps(values, ops);
    world.checkAbort();
    collectives.allreduce(values, ops);
  }

  @Override
  public final int[] allgather(int[] local) {
    CommArguments.checkNotNull(local, "local");
    world.checkAbort();
    return collectives.allgather(local);
  }

  @Override
  public final double[] allgather(double[] local) {
    CommArguments.checkNotNull(local, "local");
    world.checkAbort();
    return collectives.allgather(local);
  }

  @Override
  public final double[] gather(double[] local, int root) {
    CommArguments.checkNotNull(local, "local");
    CommArguments.checkRoot(root, size());
    world.checkAbort();
    return collectives.gather(local, root);
  }

  @Override
  public final void broadcast(double[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    CommArguments.checkRoot(root, size());
    world.checkAbort();
    collectives.broadcast(data, root);
  }

  @Override
  public final void broadcast(int[] data, int root) {
    CommArguments.checkNotNull(data, "data");
    CommArguments.checkRoot(root, size());
    world.checkAbort();
    collectives.broadcast(data, root);
  }

  @Override
  public final void barrier() {
    world.checkAbort();
    collectives.barrier();
  }

  @Override
  public final void setStallTimeout(Duration timeout) {
    world.setStallTimeout(timeout);
  }

  @Override
  public final Duration stallTimeout() {
    return world.stallTimeout();
  }

  @Override
  public final void abort(String reason) {
    throw world.abort(reason == null ? "(no reason given)" : reason);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[rank=" + rank() + ", " + describe() + "]";
  }
}
