package org.metope.comm;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Counts the Java threads each rank starts while it passes large messages round a ring, for the
 * test that niodev no longer starts a thread per message above its protocol switch limit. Started
 * by the launcher: {@code ./metope -np 2 --dev niodev --class org.metope.comm.LargeMessageThreads}.
 * Rank 0 prints {@code large-message thread starts per rank: [a, b]} for {@value #MESSAGES}
 * messages of {@value #DOUBLES} doubles (256 KiB, twice MPJ's default limit) sent by each rank,
 * after a warm-up round.
 */
public final class LargeMessageThreads {
  public static final int MESSAGES = 40;
  static final int DOUBLES = 32768;

  private LargeMessageThreads() {}

  /** Entry under MPJ; returns the exit code. */
  public static int run(String[] args) {
    Communicator world = Communicators.world();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] out = new double[DOUBLES];
    double[] in = new double[DOUBLES];
    ring(world, out, in, 5);
    world.barrier();
    long before = threads.getTotalStartedThreadCount();
    ring(world, out, in, MESSAGES);
    long started = threads.getTotalStartedThreadCount() - before;
    world.barrier();
    double[] all = world.gather(new double[] {started}, 0);
    if (world.rank() == 0) {
      System.out.println("large-message thread starts per rank: " + Arrays.toString(
          Arrays.stream(all).mapToLong(v -> (long) v).toArray()));
    }
    return 0;
  }

  private static void ring(Communicator world, double[] out, double[] in, int messages) {
    int next = (world.rank() + 1) % world.size();
    int prev = (world.rank() + world.size() - 1) % world.size();
    Request send = world.newRequest();
    Request receive = world.newRequest();
    for (int m = 0; m < messages; m++) {
      Arrays.fill(out, world.rank() * 1000.0 + m);
      world.irecv(receive, in, 0, in.length, prev, 5);
      world.isend(send, out, 0, out.length, next, 5);
      receive.waitFor();
      send.waitFor();
      if (in[DOUBLES - 1] != prev * 1000.0 + m) {
        throw new IllegalStateException("message " + m + " from rank " + prev + " arrived wrong: "
            + in[DOUBLES - 1]);
      }
    }
  }
}
