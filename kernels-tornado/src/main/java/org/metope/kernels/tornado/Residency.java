package org.metope.kernels.tornado;

import java.util.Arrays;

/**
 * One arena as a device-resident run would own it: a host copy, a device copy, which of them is
 * current, and the layout version both were made for. Code that touches the arena says so first:
 * {@link #acquireHost} or {@link #acquireDevice}, for reading or writing, which copies the whole
 * arena across only when the other side holds the current data, and {@code release} after. Per
 * stage only regions cross ({@link #copyRegionToHost}, {@link #copyRegionToDevice}): a send
 * region, a received region. Every byte that crosses is counted in the {@link DeviceTrace} given.
 *
 * <p>Several holders may hold one side at once (task threads of different partitions, each on
 * its own blocks); an acquire of the other side waits until they have all released, so a copy
 * never runs while the other side is being written. A thread that holds one side and asks for
 * the other is refused at once (it would wait for itself).
 *
 * <p>With {@code poisonStale} (a debug switch), a write on one side fills the other copy with
 * {@link #POISON}, so that code which reads without acquiring sees NaN with a recognisable payload
 * instead of old values that look plausible.
 *
 * <p>A resident {@link DeviceBackend} owns one per data arena (docs/ARCHITECTURE.md, "Device
 * residency").
 */
public final class Residency {
  /** How an acquire will use the arena. */
  public enum Access {
    /** Read only: the other copy stays current. */
    READ,
    /** Read and write: the other copy becomes stale. */
    WRITE
  }

  /** Where the current data are. */
  public enum Side {
    /** Host copy current, device copy stale. */
    HOST,
    /** Device copy current, host copy stale. */
    DEVICE,
    /** Both copies hold the same data. */
    BOTH
  }

  /** The value a stale copy is filled with in debug mode: a quiet NaN with payload 0xde7ac4ed. */
  public static final double POISON = Double.longBitsToDouble(0x7ff8_0000_de7a_c4edL);

  /** The device side of a residency: an array in device memory, moved in pieces. */
  public interface DeviceMemory {
    /** Copies {@code host[offset, offset + length)} to the same place on the device. */
    void upload(double[] host, int offset, int length);

    /** Copies the device's {@code [offset, offset + length)} into {@code host}. */
    void download(double[] host, int offset, int length);

    /** Fills the device copy with {@code value}. */
    void fill(double value);
  }

  private final String name;
  private final double[] host;
  private final DeviceMemory device;
  private final int layoutVersion;
  private final boolean poisonStale;
  private final DeviceTrace trace;
  private Side current = Side.HOST;
  /** The side held, or null; {@link #holders} threads hold it. */
  private String holder;
  private int holders;
  private final java.util.Set<Thread> holding = new java.util.HashSet<>();

  /**
   * A residency whose host copy is current.
   *
   * @param name what the arena is, for messages and the trace
   * @param layoutVersion the version of the layout both copies follow
   */
  public Residency(String name, double[] host, DeviceMemory device, int layoutVersion,
      boolean poisonStale, DeviceTrace trace) {
    this.name = name;
    this.host = host;
    this.device = device;
    this.layoutVersion = layoutVersion;
    this.poisonStale = poisonStale;
    this.trace = trace;
  }

  /** A residency whose device is a second Java array, as in {@code EmulatedDeviceBackend}. */
  public static Residency emulated(String name, double[] host, int layoutVersion,
      boolean poisonStale, DeviceTrace trace) {
    return new Residency(name, host, new ArrayMemory(new double[host.length]), layoutVersion,
        poisonStale, trace);
  }

  /** Which copy is current. */
  public synchronized Side current() {
    return current;
  }

  /**
   * Gives the host copy for {@code access}, first copying the device copy over it if only the
   * device copy is current.
   *
   * @throws IllegalStateException when the arena is held, or was made for another layout
   */
  public synchronized double[] acquireHost(Access access, int expectedLayoutVersion) {
    take("host", expectedLayoutVersion);
    if (current == Side.DEVICE) {
      device.download(host, 0, host.length);
      trace.toHost(name, 8L * host.length);
      current = Side.BOTH;
    }
    if (access == Access.WRITE) {
      current = Side.HOST;
      if (poisonStale) {
        device.fill(POISON);
      }
    }
    return host;
  }

  /**
   * Makes the device copy current for {@code access}, first copying the host copy over it if only
   * the host copy is current.
   *
   * @throws IllegalStateException when the arena is held, or was made for another layout
   */
  public synchronized void acquireDevice(Access access, int expectedLayoutVersion) {
    take("device", expectedLayoutVersion);
    if (current == Side.HOST) {
      device.upload(host, 0, host.length);
      trace.toDevice(name, 8L * host.length);
      current = Side.BOTH;
    }
    if (access == Access.WRITE) {
      current = Side.DEVICE;
      if (poisonStale) {
        Arrays.fill(host, POISON);
      }
    }
  }

  /** Ends the calling thread's acquire. */
  public synchronized void release() {
    if (holder == null || !holding.remove(Thread.currentThread())) {
      throw new IllegalStateException("release() without acquire: arena=" + name);
    }
    if (--holders == 0) {
      holder = null;
      notifyAll();
    }
  }

  /**
   * Copies {@code [offset, offset + length)} from the device to the host (a send region) while the
   * device copy stays the current one; only the arena's holder on the device side may do it.
   */
  public synchronized void copyRegionToHost(int offset, int length) {
    checkRegion("device", offset, length);
    device.download(host, offset, length);
    trace.toHost(name, 8L * length);
  }

  /**
   * Copies {@code [offset, offset + length)} from the host to the device (a received region) while
   * the device copy stays the current one; only the arena's holder on the device side may do it.
   */
  public synchronized void copyRegionToDevice(int offset, int length) {
    checkRegion("device", offset, length);
    device.upload(host, offset, length);
    trace.toDevice(name, 8L * length);
  }

  private void take(String side, int expectedLayoutVersion) {
    if (expectedLayoutVersion != layoutVersion) {
      throw new IllegalStateException("arena layout changed since its residency was made: arena="
          + name + " layoutVersion=" + layoutVersion + " expected=" + expectedLayoutVersion);
    }
    if (holding.contains(Thread.currentThread())) {
      throw new IllegalStateException("arena already held by this thread: arena=" + name
          + " holder=" + holder + " wanted=" + side);
    }
    boolean interrupted = false;
    while (holder != null && !holder.equals(side)) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    holder = side;
    holders++;
    holding.add(Thread.currentThread());
  }

  private void checkRegion(String side, int offset, int length) {
    if (!side.equals(holder) || !holding.contains(Thread.currentThread())
        || current != Side.DEVICE) {
      throw new IllegalStateException("region copy outside a device write acquire: arena=" + name
          + " holder=" + holder + " current=" + current);
    }
    if (offset < 0 || length < 0 || offset + length > host.length) {
      throw new IllegalArgumentException("region outside the arena: arena=" + name + " offset="
          + offset + " length=" + length + " arenaLength=" + host.length);
    }
  }

  /** Device memory that is a Java array (the emulated device's copy of the host array). */
  static final class ArrayMemory implements DeviceMemory {
    private final double[] copy;

    ArrayMemory(double[] copy) {
      this.copy = copy;
    }

    @Override
    public void upload(double[] from, int offset, int length) {
      System.arraycopy(from, offset, copy, offset, length);
    }

    @Override
    public void download(double[] to, int offset, int length) {
      System.arraycopy(copy, offset, to, offset, length);
    }

    @Override
    public void fill(double value) {
      Arrays.fill(copy, value);
    }
  }
}
