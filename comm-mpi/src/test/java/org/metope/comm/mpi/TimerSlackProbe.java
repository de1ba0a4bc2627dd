package org.metope.comm.mpi;

import org.metope.comm.Communicators;

/**
 * A rank application for {@link MpiTimerSlackTest}: prints the timer slack of the rank's main
 * thread and of a thread it starts, as {@code rank R timer slack: main=N thread=M}.
 */
public final class TimerSlackProbe {
  private TimerSlackProbe() {}

  /** Entry through the launcher's {@code --class}. */
  public static int run(String[] args) throws InterruptedException {
    long[] started = new long[1];
    Thread t = new Thread(() -> started[0] = TimerSlack.get());
    t.start();
    t.join();
    System.out.println("rank " + Communicators.world().rank() + " timer slack: main="
        + TimerSlack.get() + " thread=" + started[0]);
    return 0;
  }
}
