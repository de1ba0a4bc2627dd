package org.metope.comm;

/**
 * The collectives of one communicator of a message-passing device, which {@link
 * DeviceCommunicator} calls once it has checked the arguments and the abort state. Each method
 * does what the {@link Communicator} method of the same name promises, with the same bits.
 */
public interface DeviceCollectives {
  /** {@link Communicator#allreduce(double[], ReduceOp)}. */
  void allreduce(double[] values, ReduceOp op);

  /** {@link Communicator#allreduce(long[], ReduceOp)}. */
  void allreduce(long[] values, ReduceOp op);

  /** {@link Communicator#allreduce(long[], ReduceOp[])}; {@code ops} as long as {@code values}. */
  void allreduce(long[] values, ReduceOp[] ops);

  /** {@link Communicator#allgather(int[])}. */
  int[] allgather(int[] local);

  /** {@link Communicator#allgather(double[])}. */
  double[] allgather(double[] local);

  /** {@link Communicator#gather(double[], int)}. */
  double[] gather(double[] local, int root);

  /** {@link Communicator#broadcast(double[], int)}. */
  void broadcast(double[] data, int root);

  /** {@link Communicator#broadcast(int[], int)}. */
  void broadcast(int[] data, int root);

  /** {@link Communicator#barrier()}. */
  void barrier();
}
