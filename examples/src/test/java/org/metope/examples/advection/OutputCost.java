package org.metope.examples.advection;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.OutputSignal;
import org.metope.outputs.OutputType;
import org.metope.outputs.Outputs;

/**
 * Developer tool: what the HDF5 and restart outputs of a deck cost. Runs the deck on N in-process
 * ranks, then writes every HDF5 output block of the final mesh {@code REPEATS} times (signal
 * {@code now}) into {@code DIR}, and prints per write on rank 0 the wall time, the bytes rank 0's
 * thread allocated during it and the JVM's uptime at its start and end, so that a {@code
 * -Xlog:gc} log can be cut at the writes. Each write follows a full collection ({@code
 * System.gc()}), whose heap after is the live heap before the write. With {@code
 * -Doutputcost.gcSampleMs=N} a thread also collects every N ms during each write, so that the log
 * shows the live heap while it runs (its times are then not the write's own):
 *
 * <pre>
 * java -Xlog:gc:file=gc.log [-Doutputcost.gcSampleMs=20] -cp ... \
 *     org.metope.examples.advection.OutputCost RANKS DECK DIR REPEATS [block/key=value ...]
 * </pre>
 */
public final class OutputCost {
  private OutputCost() {}

  /** {@code args}: ranks, deck, output directory, repeats, overrides. */
  public static void main(String[] args) throws Exception {
    int ranks = Integer.parseInt(args[0]);
    Path deck = Path.of(args[1]);
    Path dir = Files.createDirectories(Path.of(args[2]));
    int repeats = Integer.parseInt(args[3]);
    List<String> overrides = Arrays.asList(args).subList(4, args.length);
    StringBuilder report = new StringBuilder();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.load(deck, overrides);
      Path runDir = dir.resolve("run");
      try {
        Files.createDirectories(runDir);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      Mesh mesh = AdvectionRuns.run(pin, runDir, comm).mesh();
      ParameterInput fresh = ParameterInput.load(deck, overrides);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      Outputs outputs = new Outputs(mesh, fresh, tm, dir);
      if (comm.rank() == 0) {
        report.append(mesh.totalBlocks()).append(" blocks on ").append(ranks)
            .append(" ranks\n");
      }
      for (int r = 0; r < repeats; r++) {
        for (OutputType out : outputs.outputs()) {
          if (out.parameters().fileType().equals("hst")) {
            continue;
          }
          if (comm.rank() == 0) {
            System.gc(); // the live heap before the write: the log's full collection
          }
          comm.barrier();
          long allocated = allocatedBytes();
          long upStart = ManagementFactory.getRuntimeMXBean().getUptime();
          Thread sampler = comm.rank() == 0 ? startSampler() : null;
          long start = System.nanoTime();
          out.write(mesh, tm, OutputSignal.NOW);
          double seconds = (System.nanoTime() - start) * 1e-9;
          if (sampler != null) {
            sampler.interrupt();
            join(sampler);
          }
          long upEnd = ManagementFactory.getRuntimeMXBean().getUptime();
          if (comm.rank() == 0) {
            report.append(String.format("%s write %.3f s, rank 0 allocated %.1f MB,"
                + " uptime %d-%d ms%n", out.parameters().fileType(), seconds,
                (allocatedBytes() - allocated) / 1e6, upStart, upEnd));
          }
        }
      }
    });
    System.out.print(report);
  }

  /** A thread that collects every {@code outputcost.gcSampleMs} ms until interrupted, or null. */
  private static Thread startSampler() {
    long period = Long.getLong("outputcost.gcSampleMs", 0L);
    if (period <= 0) {
      return null;
    }
    Thread t = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        System.gc();
        try {
          Thread.sleep(period);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    t.start();
    return t;
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
