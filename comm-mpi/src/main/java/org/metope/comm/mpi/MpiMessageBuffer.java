package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import org.metope.comm.MessageBuffer;

/**
 * A message buffer of the MPI device: native memory that {@code MPI_Isend} reads and {@code
 * MPI_Irecv} writes in place, so its messages cost no copy in Java ({@link MpiRequest} stages
 * heap arrays instead). The memory is freed by the garbage collector once the buffer is
 * unreachable; a request in flight holds its buffer, and the world holds the request, so MPI never
 * writes into freed memory.
 *
 * <p>{@link #operationsInFlight} counts the sends and receives started on the buffer and not yet
 * found complete; Java's reads and writes throw while it is not zero.
 */
final class MpiMessageBuffer extends MessageBuffer {
  private final MpiWorld world;
  private final MemorySegment memory;
  private final int capacity;
  private final AtomicInteger operationsInFlight = new AtomicInteger();

  MpiMessageBuffer(MpiWorld world, int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: capacity=" + capacity);
    }
    this.world = world;
    this.capacity = capacity;
    this.memory = Arena.ofAuto().allocate(Math.max(1L, capacity) * Double.BYTES, 64);
  }

  boolean belongsTo(MpiWorld w) {
    return world == w;
  }

  /** The memory of {@code [offset, offset + length)}, for MPI. */
  MemorySegment range(int offset, int length) {
    checkRange(capacity, offset, length);
    return offset == 0 ? memory : memory.asSlice((long) offset * Double.BYTES);
  }

  /** An operation on the buffer started: Java may not touch it until {@link #released()}. */
  void held() {
    operationsInFlight.incrementAndGet();
  }

  /** An operation on the buffer was found complete (or failed to start). */
  void released() {
    operationsInFlight.decrementAndGet();
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public double get(int index) {
    checkIdle();
    return memory.getAtIndex(JAVA_DOUBLE, checkIndex(index));
  }

  @Override
  public void set(int index, double value) {
    checkIdle();
    memory.setAtIndex(JAVA_DOUBLE, checkIndex(index), value);
  }

  @Override
  public void copyFrom(double[] source, int sourceOffset, int offset, int length) {
    checkIdle();
    checkRange(capacity, offset, length);
    MemorySegment.copy(source, sourceOffset, memory, JAVA_DOUBLE, (long) offset * Double.BYTES,
        length);
  }

  @Override
  public void copyTo(int offset, double[] target, int targetOffset, int length) {
    checkIdle();
    checkRange(capacity, offset, length);
    MemorySegment.copy(memory, JAVA_DOUBLE, (long) offset * Double.BYTES, target, targetOffset,
        length);
  }

  @Override
  public boolean isDirect() {
    return true;
  }

  private long checkIndex(int index) {
    if (index < 0 || index >= capacity) {
      throw new IndexOutOfBoundsException("index out of the message buffer: index=" + index
          + ", capacity=" + capacity);
    }
    return index;
  }

  private void checkIdle() {
    int inFlight = operationsInFlight.get();
    if (inFlight != 0) {
      throw new IllegalStateException("message buffer in use by " + inFlight + " send(s) or "
          + "receive(s) in flight: rank=" + world.rank() + ", capacity=" + capacity
          + " (touch it once test() or waitFor() found them complete)");
    }
  }

  @Override
  public String toString() {
    return "MpiMessageBuffer[rank=" + world.rank() + ", capacity=" + capacity + "]";
  }
}
