package org.metope.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The comparison of {@link FluxKernelBenchmark} timed in thread CPU time instead of wall time, for
 * a shared machine: other processes stretch wall time (JMH's errors reach 30% at a load of 20 on
 * 2 cores) far more than the CPU time of the measuring thread. Both kernels run in alternation,
 * 10 launches per sample, after the warm-up of {@link FluxMeshes#warmUp}; prints the median
 * and 10th percentile per launch and the ratio of the medians.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * org.metope.benchmarks.FluxKernelCpuTime [samples]} (default 200).
 */
public final class FluxKernelCpuTime {
  private static final int LAUNCHES_PER_SAMPLE = 10;

  private FluxKernelCpuTime() {}

  /** Prints one line per velocity mode. */
  public static void main(String[] args) {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    FluxMeshes.Case constant = FluxMeshes.build(3, 16, 2, true, false, 1);
    FluxMeshes.Case field = FluxMeshes.build(3, 16, 2, false, false, 2);
    FluxMeshes.warmUp(300, constant, field);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (FluxMeshes.Case c : new FluxMeshes.Case[] {constant, field}) {
      long[] hand = new long[samples];
      long[] views = new long[samples];
      for (int s = 0; s < samples; s++) {
        long t0 = threads.getCurrentThreadCpuTime();
        for (int m = 0; m < LAUNCHES_PER_SAMPLE; m++) {
          HandWrittenFluxes.calculateFluxes(c.md(), c.fluxFields());
        }
        long t1 = threads.getCurrentThreadCpuTime();
        for (int m = 0; m < LAUNCHES_PER_SAMPLE; m++) {
          c.viewKernel().calculateFluxes(c.md(), c.fluxFields());
        }
        long t2 = threads.getCurrentThreadCpuTime();
        hand[s] = (t1 - t0) / LAUNCHES_PER_SAMPLE;
        views[s] = (t2 - t1) / LAUNCHES_PER_SAMPLE;
      }
      Arrays.sort(hand);
      Arrays.sort(views);
      System.out.printf(Locale.ROOT, "%-8s hand-written median %8.1f us (p10 %8.1f), views median"
          + " %8.1f us (p10 %8.1f), views / hand-written %.3f%n",
          c == constant ? "constant" : "field", hand[samples / 2] / 1e3, hand[samples / 10] / 1e3,
          views[samples / 2] / 1e3, views[samples / 10] / 1e3,
          (double) views[samples / 2] / hand[samples / 2]);
    }
  }
}
