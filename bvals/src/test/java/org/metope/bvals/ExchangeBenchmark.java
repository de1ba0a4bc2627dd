package org.metope.bvals;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import org.metope.bvals.channel.ChannelRegistry;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.CoalescedMessage;
import org.metope.bvals.channel.CommBuffer;
import org.metope.comm.InProcessRun;
import org.metope.comm.PeakResidentMemory;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/**
 * Boundary exchange time per cycle for the reference case: a 3D periodic 64^3 mesh of 64
 * blocks of 16^3 cells, 2 ghost layers, one field, all 26 neighbours: post receives, load, send,
 * receive, unload, physical boundaries, through the task system as a driver runs it. Reports the
 * median time per exchange of several timed runs after a warm-up, and the messages one exchange
 * sends between ranks.
 *
 * <pre>
 *   mvn -q -B -pl bvals -am test-compile
 *   java -cp "$(cat bvals/target/classpath.txt)" org.metope.bvals.ExchangeBenchmark \
 *       [ranks] [pack_size] [coalesce] [backend]
 * </pre>
 *
 * <p>{@code backend} is the kernel backend, {@code jvm} (default, 1 thread) or {@code tornado}
 * (run with the TornadoVM SDK's JVM options; docs/TORNADOVM.md), which times a tenth of
 * the exchanges after a tenth of the warm-up.
 */
public final class ExchangeBenchmark {
  private ExchangeBenchmark() {}

  /**
   * Arguments: in-process ranks (default 1), pack_size (default -1: one partition per rank),
   * coalesce (default true: one message per sending partition, peer and kind), kernel backend
   * (default jvm).
   */
  public static void main(String[] args) {
    int ranks = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    int packSize = args.length > 1 ? Integer.parseInt(args[1]) : -1;
    boolean coalesce = args.length <= 2 || Boolean.parseBoolean(args[2]);
    String backend = args.length > 3 ? args[3] : KernelBackends.DEFAULT;
    StateDescriptor pkg = new StateDescriptor("bench");
    pkg.addField("advected", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    // Mesh 64^3 (not "= 16" alone: that would also rewrite pack_size = 16), blocks 16^3.
    String deck = ExchangeFixture.periodic3d(packSize).replace("nx1 = 16\n", "nx1 = 64\n")
        .replace("nx2 = 16\n", "nx2 = 64\n").replace("nx3 = 16\n", "nx3 = 64\n")
        .replace("nx1 = 8\nnx2 = 8\nnx3 = 8", "nx1 = 16\nnx2 = 16\nnx3 = 16");
    // A device backend's exchanges take milliseconds where the JVM's take microseconds: it gets a
    // tenth of the exchanges (its kernels compile at the first launch, not over a warm-up).
    boolean jvm = backend.equals(KernelBackends.DEFAULT);
    int runs = 7;
    int perRun = jvm ? 200 : 20;
    int warmUp = jvm ? 2000 : 200;
    AtomicLongArray nanos = new AtomicLongArray(runs);
    long[] doubles = new long[1];
    AtomicLongArray messages = new AtomicLongArray(1);
    InProcessRun.run(ranks, Duration.ofMinutes(30), world -> {
      try (ExchangeFixture f = new ExchangeFixture(deck, world, pkg, coalesce,
          KernelBackends.create(backend, 1))) {
        for (int i = 0; i < warmUp; i++) {
          f.exchange.execute();
        }
        for (int r = 0; r < runs; r++) {
          world.barrier();
          long t0 = System.nanoTime();
          for (int i = 0; i < perRun; i++) {
            f.exchange.execute();
          }
          world.barrier();
          long dt = System.nanoTime() - t0;
          if (world.rank() == 0) {
            nanos.set(r, dt);
          }
        }
        if (world.rank() == 0) {
          doubles[0] = f.mesh.totalBlocks() * 26L; // boundaries of the whole mesh
        }
        messages.addAndGet(0, sentPerExchange(f.comm.registry()));
      }
    });
    long[] sorted = new long[runs];
    for (int r = 0; r < runs; r++) {
      sorted[r] = nanos.get(r);
    }
    Arrays.sort(sorted);
    double us = sorted[runs / 2] / 1e3 / perRun;
    System.out.printf("backend=%s ranks=%d pack_size=%d coalesce=%b boundaries=%d messages=%d:"
        + " %.1f us per exchange (min %.1f, max %.1f), %s%n", backend, ranks, packSize, coalesce,
        doubles[0], messages.get(0), us, sorted[0] / 1e3 / perRun, sorted[runs - 1] / 1e3 / perRun,
        PeakResidentMemory.ofThisProcess());
  }

  /** Messages this rank sends between ranks per exchange: coalesced ones, or one per channel. */
  private static long sentPerExchange(ChannelRegistry registry) {
    long n = 0;
    for (CoalescedMessage m : registry.messages()) {
      n += m.group().role() == ChannelRole.SENDER ? 1 : 0;
    }
    for (CommBuffer b : registry.boundaryValues().sorted()) {
      n += b.role() == ChannelRole.SENDER && b.message() == null ? 1 : 0;
    }
    return n;
  }
}
