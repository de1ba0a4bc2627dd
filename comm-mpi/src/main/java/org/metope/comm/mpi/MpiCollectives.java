package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.metope.comm.DeviceCollectives;
import org.metope.comm.DeviceWorld;
import org.metope.comm.ReduceOp;

/**
 * Collectives of the MPI device on one communicator: MPI's own non-blocking collectives, polled
 * so that a stall aborts the run instead of hanging it ({@link MpiWorld#awaitCollective}).
 *
 * <p><b>Exact results.</b> Every backend folds reductions in rank order, so the same deck gives
 * the same bits on every device. MPI's own operation is used where the result cannot depend on
 * the order: {@code long} sums (wrapping two's-complement addition, done as {@code MPI_UINT64_T}),
 * {@code long} minima and maxima, and {@code double} minima and maxima, which are reduced as
 * {@link ReduceOp#encode} keys whose integer order is {@link Math#min}/{@link Math#max}'s order
 * (-0.0 below 0.0). A {@code double} sum, or a minimum or maximum over a NaN (whose bits are
 * those of the first NaN in rank order), is gathered to rank 0 ({@code MPI_Igather}), folded there
 * in rank order and broadcast ({@code MPI_Ibcast}): the same bits as one rank adding them. A
 * cycle's mixed reduction ({@link #allreduce(long[], ReduceOp[])}) is two {@code
 * MPI_Iallreduce}s in flight together: its sums, and its minima and maxima as one {@code MPI_MAX}
 * (a minimum travels bitwise complemented, {@code ~v}, which reverses the order of longs). Gathers
 * to every rank are {@code MPI_Iallgather(v)}, gathers to one rank {@code MPI_Igatherv},
 * broadcasts {@code MPI_Ibcast}; the barrier is {@code MPI_Ibarrier}.
 *
 * <p>Values pass through off-heap buffers of this communicator (MPI keeps their addresses until
 * completion), which grow to the largest collective seen: the reductions' four are whole segments
 * kept in fields, and the wait keeps one waiter, so a reduction of a cycle allocates nothing in
 * steady state; gathers and broadcasts slice one more scratch buffer. Calls on one communicator
 * are serialised, as MPI requires them to be ordered anyway.
 */
final class MpiCollectives implements DeviceCollectives {
  private final MpiWorld world;
  private final MpiLibrary mpi;
  private final MpiCollectiveCalls calls;
  private final MemorySegment comm;
  private final MemorySegment request;
  private final MemorySegment secondRequest;
  private final MemorySegment flag;
  private final DeviceWorld.Waiter waiter;
  /** The collective in progress, named in a stall's message. */
  private String operation = "";
  /** A reduction's contribution, and its first results. */
  private MemorySegment send;
  private MemorySegment result;
  /** The second reduction of a mixed one (its extremes), and its results. */
  private MemorySegment secondSend;
  private MemorySegment secondResult;
  private MemorySegment scratch;

  MpiCollectives(MpiWorld world, MemorySegment comm) {
    this.world = world;
    this.mpi = world.mpi();
    this.calls = mpi.collectives;
    this.comm = comm;
    MemorySegment cells = Arena.ofAuto().allocate(24, 8);
    this.request = cells.asSlice(0, 8);
    this.secondRequest = cells.asSlice(8, 8);
    this.flag = cells.asSlice(16, 4);
    this.waiter = world.waiter(() -> operation + " with the other ranks");
    this.send = grown(null, 256);
    this.result = grown(null, 256);
    this.secondSend = grown(null, 256);
    this.secondResult = grown(null, 256);
    this.scratch = grown(null, 1024);
  }

  /** {@code segment} when it holds {@code bytes}, else a new segment of at least twice its size. */
  private static MemorySegment grown(MemorySegment segment, long bytes) {
    if (segment != null && bytes <= segment.byteSize()) {
      return segment;
    }
    long size = segment == null ? bytes : Math.max(bytes, 2 * segment.byteSize());
    return Arena.ofAuto().allocate(size, 8);
  }

  @Override
  public synchronized void allreduce(double[] values, ReduceOp op) {
    int n = values.length;
    if (n == 0) {
      return;
    }
    if (op == ReduceOp.SUM) {
      foldAtRankZero(values, op);
      return;
    }
    send = grown(send, (long) n * Long.BYTES);
    result = grown(result, (long) n * Long.BYTES);
    long nanKey = op.encode(Double.NaN);
    for (int i = 0; i < n; i++) {
      send.setAtIndex(JAVA_LONG, i, op.encode(values[i]));
    }
    start(calls.iallreduce(send, result, n, mpi.typeInt64, op == ReduceOp.MAX ? mpi.opMax
        : mpi.opMin, comm, request), "MPI_Iallreduce");
    await("allreduce");
    for (int i = 0; i < n; i++) {
      if (result.getAtIndex(JAVA_LONG, i) == nanKey) {
        foldAtRankZero(values, op);
        return;
      }
    }
    for (int i = 0; i < n; i++) {
      values[i] = ReduceOp.decode(result.getAtIndex(JAVA_LONG, i));
    }
  }

  /**
   * Every rank's {@code values} gathered to rank 0, folded there in rank order and broadcast: the
   * bits one rank folding every contribution in rank order gets.
   */
  private void foldAtRankZero(double[] values, ReduceOp op) {
    int n = values.length;
    int size = world.size();
    send = grown(send, (long) n * Double.BYTES);
    result = grown(result, (long) size * n * Double.BYTES);
    MemorySegment mine = send;
    MemorySegment all = result;
    for (int i = 0; i < n; i++) {
      mine.setAtIndex(JAVA_DOUBLE, i, values[i]);
    }
    start(calls.igather(mine, n, mpi.typeDouble, all, n, mpi.typeDouble, 0, comm, request),
        "MPI_Igather");
    await("allreduce");
    if (world.rank() == 0) {
      for (int i = 0; i < n; i++) {
        double acc = all.getAtIndex(JAVA_DOUBLE, i);
        for (int r = 1; r < size; r++) {
          acc = op.apply(acc, all.getAtIndex(JAVA_DOUBLE, (long) r * n + i));
        }
        mine.setAtIndex(JAVA_DOUBLE, i, acc);
      }
    }
    start(calls.ibcast(mine, n, mpi.typeDouble, 0, comm, request), "MPI_Ibcast");
    await("allreduce");
    for (int i = 0; i < n; i++) {
      values[i] = mine.getAtIndex(JAVA_DOUBLE, i);
    }
  }

  @Override
  public synchronized void allreduce(long[] values, ReduceOp op) {
    int n = values.length;
    if (n == 0) {
      return;
    }
    send = grown(send, (long) n * Long.BYTES);
    result = grown(result, (long) n * Long.BYTES);
    for (int i = 0; i < n; i++) {
      send.setAtIndex(JAVA_LONG, i, values[i]);
    }
    MemorySegment type = op == ReduceOp.SUM ? mpi.typeUint64 : mpi.typeInt64;
    MemorySegment mpiOp = switch (op) {
      case SUM -> mpi.opSum;
      case MIN -> mpi.opMin;
      case MAX -> mpi.opMax;
    };
    start(calls.iallreduce(send, result, n, type, mpiOp, comm, request), "MPI_Iallreduce");
    await("allreduce");
    for (int i = 0; i < n; i++) {
      values[i] = result.getAtIndex(JAVA_LONG, i);
    }
  }

  @Override
  public synchronized void allreduce(long[] values, ReduceOp[] ops) {
    int n = values.length;
    long bytes = (long) n * Long.BYTES;
    MemorySegment sums = send = grown(send, bytes);
    MemorySegment sumResults = result = grown(result, bytes);
    MemorySegment extremes = secondSend = grown(secondSend, bytes);
    MemorySegment extremeResults = secondResult = grown(secondResult, bytes);
    int sumCount = 0;
    int extremeCount = 0;
    for (int i = 0; i < n; i++) {
      long v = values[i];
      switch (ops[i]) {
        case SUM -> sums.setAtIndex(JAVA_LONG, sumCount++, v);
        case MAX -> extremes.setAtIndex(JAVA_LONG, extremeCount++, v);
        case MIN -> extremes.setAtIndex(JAVA_LONG, extremeCount++, ~v);
      }
    }
    if (sumCount > 0) {
      start(calls.iallreduce(sums, sumResults, sumCount, mpi.typeUint64, mpi.opSum, comm, request),
          "MPI_Iallreduce");
    }
    if (extremeCount > 0) {
      start(calls.iallreduce(extremes, extremeResults, extremeCount, mpi.typeInt64, mpi.opMax, comm,
          secondRequest), "MPI_Iallreduce");
    }
    if (sumCount > 0) {
      await("allreduce");
    }
    if (extremeCount > 0) {
      operation = "allreduce";
      world.awaitCollective(secondRequest, flag, operation, waiter);
    }
    for (int i = 0, s = 0, e = 0; i < n; i++) {
      values[i] = switch (ops[i]) {
        case SUM -> sumResults.getAtIndex(JAVA_LONG, s++);
        case MAX -> extremeResults.getAtIndex(JAVA_LONG, e++);
        case MIN -> ~extremeResults.getAtIndex(JAVA_LONG, e++);
      };
    }
  }

  @Override
  public synchronized int[] allgather(int[] local) {
    return (int[]) gatherv(local, local.length, JAVA_INT, mpi.typeInt, -1);
  }

  @Override
  public synchronized double[] allgather(double[] local) {
    return (double[]) gatherv(local, local.length, JAVA_DOUBLE, mpi.typeDouble, -1);
  }

  @Override
  public synchronized double[] gather(double[] local, int root) {
    return (double[]) gatherv(local, local.length, JAVA_DOUBLE, mpi.typeDouble, root);
  }

  /**
   * The concatenation in rank order of every rank's {@code local} (an {@code int[]} or {@code
   * double[]} of {@code n} elements of {@code layout}): at every rank when {@code root} is -1
   * (the lengths by {@code MPI_Iallgather}, the elements by {@code MPI_Iallgatherv}), else at
   * {@code root} alone and an empty array elsewhere ({@code MPI_Igather}, {@code MPI_Igatherv}),
   * so no rank but the root receives the whole.
   */
  private Object gatherv(Object local, int n, ValueLayout layout, MemorySegment type, int root) {
    boolean everyRank = root < 0;
    String operation = everyRank ? "allgather" : "gather";
    int size = world.size();
    ensureScratch((long) (size + 1) * Integer.BYTES);
    MemorySegment mine = scratch.asSlice(0, Integer.BYTES);
    MemorySegment counts = scratch.asSlice(Integer.BYTES, (long) size * Integer.BYTES);
    mine.set(JAVA_INT, 0, n);
    start(everyRank ? calls.iallgather(mine, 1, mpi.typeInt, counts, 1, mpi.typeInt, comm, request)
        : calls.igather(mine, 1, mpi.typeInt, counts, 1, mpi.typeInt, root, comm, request),
        everyRank ? "MPI_Iallgather" : "MPI_Igather");
    await(operation);
    int[] lengths = everyRank || world.rank() == root ? counts.toArray(JAVA_INT) : new int[size];
    long total = 0;
    for (int length : lengths) {
      total += length;
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("more than 2^31 - 1 elements in one " + operation
          + ": total=" + total + ", rank=" + world.rank());
    }
    long element = layout.byteSize();
    long tables = align(2L * size * Integer.BYTES);
    long sendBytes = align((long) n * element);
    ensureScratch(tables + sendBytes + total * element);
    counts = scratch.asSlice(0, (long) size * Integer.BYTES);
    MemorySegment displacements = scratch.asSlice((long) size * Integer.BYTES,
        (long) size * Integer.BYTES);
    for (int r = 0, at = 0; r < size; r++) {
      counts.setAtIndex(JAVA_INT, r, lengths[r]);
      displacements.setAtIndex(JAVA_INT, r, at);
      at += lengths[r];
    }
    MemorySegment send = scratch.asSlice(tables, (long) n * element);
    MemorySegment all = scratch.asSlice(tables + sendBytes, total * element);
    MemorySegment.copy(local, 0, send, layout, 0, n);
    start(everyRank
        ? calls.iallgatherv(send, n, type, all, counts, displacements, type, comm, request)
        : calls.igatherv(send, n, type, all, counts, displacements, type, root, comm, request),
        everyRank ? "MPI_Iallgatherv" : "MPI_Igatherv");
    await(operation);
    Object result = layout == JAVA_INT ? new int[(int) total] : new double[(int) total];
    MemorySegment.copy(all, layout, 0, result, 0, (int) total);
    return result;
  }

  @Override
  public synchronized void broadcast(double[] data, int root) {
    broadcast(data, data.length, JAVA_DOUBLE, mpi.typeDouble, root);
  }

  @Override
  public synchronized void broadcast(int[] data, int root) {
    broadcast(data, data.length, JAVA_INT, mpi.typeInt, root);
  }

  private void broadcast(Object data, int n, ValueLayout layout, MemorySegment type, int root) {
    if (n == 0) {
      return;
    }
    ensureScratch(n * layout.byteSize());
    MemorySegment buffer = scratch.asSlice(0, n * layout.byteSize());
    if (world.rank() == root) {
      MemorySegment.copy(data, 0, buffer, layout, 0, n);
    }
    start(calls.ibcast(buffer, n, type, root, comm, request), "MPI_Ibcast");
    await("broadcast");
    if (world.rank() != root) {
      MemorySegment.copy(buffer, layout, 0, data, 0, n);
    }
  }

  @Override
  public synchronized void barrier() {
    start(calls.ibarrier(comm, request), "MPI_Ibarrier");
    await("barrier");
  }

  private void start(int rc, String call) {
    mpi.check(rc, call);
  }

  private void await(String collective) {
    operation = collective;
    world.awaitCollective(request, flag, collective, waiter);
  }

  private void ensureScratch(long bytes) {
    scratch = grown(scratch, bytes);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
