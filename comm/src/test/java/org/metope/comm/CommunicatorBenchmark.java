package org.metope.comm;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Ping-pong latency (one double) and bandwidth (1 MiB messages) between ranks 0 and 1 of a
 * communicator; the other ranks wait. Figures go to docs/PERFORMANCE.md with the command and the
 * machine. Commands:
 *
 * <pre>
 * java -cp 'examples/target/lib/*' org.metope.comm.CommunicatorBenchmark       (2 threads)
 * ./metope -np 2 --dev multicore --class org.metope.comm.CommunicatorBenchmark
 * ./metope -np 2 --dev niodev --class org.metope.comm.CommunicatorBenchmark
 * </pre>
 *
 * <p>Each figure is the median of {@value #REPEATS} timed runs after a warm-up; requests are reused,
 * as the boundary exchange does. The first line sends between {@link MessageBuffer}s of the
 * communicator (native memory on the MPI device, no copy in Java), the second between heap
 * arrays (staged through native memory by each request on the MPI device), the third between
 * heap arrays copied into message buffers before the send and out of them after the receive, as
 * the boundary exchange does where the communicator prefers message buffers; on the other devices
 * every line is array messages (the third with the copies).
 */
public final class CommunicatorBenchmark {
  private static final int REPEATS = 5;
  private static final int SMALL = 1;
  private static final int LARGE = 1 << 17;
  private static final int TAG = 0;

  private CommunicatorBenchmark() {}

  /** Two in-process ranks (threads). */
  public static void main(String[] args) {
    InProcessRun.run(2, Duration.ofMinutes(10), CommunicatorBenchmark::measure);
  }

  /** Entry under MPJ (through the launcher's {@code --class}). */
  public static int run(String[] args) {
    measure(Communicators.world());
    return 0;
  }

  static void measure(Communicator c) {
    if (c.size() < 2) {
      throw new IllegalArgumentException("the benchmark needs at least 2 ranks: size=" + c.size());
    }
    String buffers = figures(c, new BufferMessages(c));
    String arrays = figures(c, new ArrayMessages(c));
    String copied = figures(c, new CopiedMessages(c));
    // The largest rank process's peak (ranks that are threads of one JVM share theirs).
    long kb = (long) c.allreduce((double) PeakResidentMemory.kilobytesOfThisProcess(),
        ReduceOp.MAX);
    String rss = PeakResidentMemory.describe(kb) + (kb > 0 ? " (largest rank)" : "");
    if (c.rank() == 0) {
      System.out.println("communicator benchmark on " + c.describe() + ": " + buffers + "; "
          + rss);
      System.out.println("  the same between heap arrays: " + arrays);
      System.out.println("  the same between heap arrays copied through message buffers: "
          + copied);
    }
  }

  /** Median latency and bandwidth of {@code messages}, as one line's end. */
  private static String figures(Communicator c, Messages messages) {
    double[] latency = new double[REPEATS];
    double[] bandwidth = new double[REPEATS];
    roundTripSeconds(c, messages, SMALL, 2000);
    for (int k = 0; k < REPEATS; k++) {
      latency[k] = roundTripSeconds(c, messages, SMALL, 10_000) / 2 * 1e6;
    }
    roundTripSeconds(c, messages, LARGE, 10);
    for (int k = 0; k < REPEATS; k++) {
      bandwidth[k] = 2.0 * LARGE * Double.BYTES / roundTripSeconds(c, messages, LARGE, 50)
          / (1 << 20);
    }
    Arrays.sort(latency);
    Arrays.sort(bandwidth);
    return String.format(Locale.ROOT, "latency %.2f us (one double, half round trip), "
        + "bandwidth %.0f MiB/s (1 MiB messages)", latency[REPEATS / 2], bandwidth[REPEATS / 2]);
  }

  /** Mean seconds per round trip of {@code length} doubles between ranks 0 and 1. */
  private static double roundTripSeconds(Communicator c, Messages messages, int length,
      int roundTrips) {
    Request send = c.newRequest();
    Request recv = c.newRequest();
    c.barrier();
    long start = System.nanoTime();
    if (c.rank() == 0) {
      for (int i = 0; i < roundTrips; i++) {
        messages.receive(recv, length, 1);
        messages.send(send, length, 1);
        send.waitFor();
        recv.waitFor();
        messages.received(length);
      }
    } else if (c.rank() == 1) {
      for (int i = 0; i < roundTrips; i++) {
        messages.receive(recv, length, 0);
        recv.waitFor();
        messages.received(length);
        messages.send(send, length, 0);
        send.waitFor();
      }
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    c.barrier();
    return seconds / roundTrips;
  }

  /** Where the ping-pong's messages leave from and land: buffers or arrays of LARGE doubles. */
  private interface Messages {
    void send(Request request, int length, int peer);

    void receive(Request request, int length, int peer);

    /** After the receive of {@code length} values completed. */
    default void received(int length) {}
  }

  private record BufferMessages(Communicator c, MessageBuffer out, MessageBuffer in)
      implements Messages {
    BufferMessages(Communicator c) {
      this(c, written(c.newMessageBuffer(LARGE)), written(c.newMessageBuffer(LARGE)));
    }

    /** Written once, as an application's buffers are (untouched pages would all be one page). */
    private static MessageBuffer written(MessageBuffer b) {
      double[] ones = new double[LARGE];
      Arrays.fill(ones, 1.0);
      b.copyFrom(ones, 0, 0, LARGE);
      return b;
    }

    @Override
    public void send(Request request, int length, int peer) {
      c.isend(request, out, 0, length, peer, TAG);
    }

    @Override
    public void receive(Request request, int length, int peer) {
      c.irecv(request, in, 0, length, peer, TAG);
    }
  }

  private record ArrayMessages(Communicator c, double[] out, double[] in) implements Messages {
    ArrayMessages(Communicator c) {
      this(c, new double[LARGE], new double[LARGE]);
    }

    @Override
    public void send(Request request, int length, int peer) {
      c.isend(request, out, 0, length, peer, TAG);
    }

    @Override
    public void receive(Request request, int length, int peer) {
      c.irecv(request, in, 0, length, peer, TAG);
    }
  }

  /** Heap arrays copied into a buffer before each send and out of one after each receive. */
  private record CopiedMessages(Communicator c, double[] out, double[] in, MessageBuffer outBuffer,
      MessageBuffer inBuffer) implements Messages {
    CopiedMessages(Communicator c) {
      this(c, new double[LARGE], new double[LARGE], c.newMessageBuffer(LARGE),
          c.newMessageBuffer(LARGE));
    }

    @Override
    public void send(Request request, int length, int peer) {
      outBuffer.copyFrom(out, 0, 0, length);
      c.isend(request, outBuffer, 0, length, peer, TAG);
    }

    @Override
    public void receive(Request request, int length, int peer) {
      c.irecv(request, inBuffer, 0, length, peer, TAG);
    }

    @Override
    public void received(int length) {
      inBuffer.copyTo(0, in, 0, length);
    }
  }
}
