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
 * as the boundary exchange does.
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
    double[] latency = new double[REPEATS];
    double[] bandwidth = new double[REPEATS];
    roundTripSeconds(c, SMALL, 2000);
    for (int k = 0; k < REPEATS; k++) {
      latency[k] = roundTripSeconds(c, SMALL, 10_000) / 2 * 1e6;
    }
    roundTripSeconds(c, LARGE, 10);
    for (int k = 0; k < REPEATS; k++) {
      bandwidth[k] = 2.0 * LARGE * Double.BYTES / roundTripSeconds(c, LARGE, 50) / (1 << 20);
    }
    if (c.rank() == 0) {
      Arrays.sort(latency);
      Arrays.sort(bandwidth);
      System.out.println(String.format(Locale.ROOT,
          "communicator benchmark on %s: latency %.2f us (one double, half round trip), "
              + "bandwidth %.0f MiB/s (1 MiB messages)",
          c.describe(), latency[REPEATS / 2], bandwidth[REPEATS / 2]));
    }
  }

  /** Mean seconds per round trip of {@code length} doubles between ranks 0 and 1. */
  private static double roundTripSeconds(Communicator c, int length, int roundTrips) {
    double[] out = new double[length];
    double[] in = new double[length];
    Request send = c.newRequest();
    Request recv = c.newRequest();
    c.barrier();
    long start = System.nanoTime();
    if (c.rank() == 0) {
      for (int i = 0; i < roundTrips; i++) {
        c.irecv(recv, in, 0, length, 1, TAG);
        c.isend(send, out, 0, length, 1, TAG);
        send.waitFor();
        recv.waitFor();
      }
    } else if (c.rank() == 1) {
      for (int i = 0; i < roundTrips; i++) {
        c.irecv(recv, in, 0, length, 0, TAG);
        recv.waitFor();
        c.isend(send, out, 0, length, 0, TAG);
        send.waitFor();
      }
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    c.barrier();
    return seconds / roundTrips;
  }
}
