package org.metope.test.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessRun;
import org.metope.comm.PeakResidentMemory;
import org.metope.driver.RunOptions;
import org.metope.examples.advection.AdvectionApplication;
import org.metope.mesh.Mesh;
import org.metope.mesh.input.ParameterInput;

/**
 * {@code ./metope bench weak [MAX_RANKS] [CYCLES]}: the weak-scaling counts of docs/SCALING.md.
 * Runs the 3D uniform advection deck ({@code inputs/advection.in}, 16^3 blocks) and its adaptive
 * version ({@code inputs/advection_amr_2d.in} made 3D, 8^3 blocks) on 1, 2, 4, ... MAX_RANKS
 * in-process ranks (default 64) with eight root blocks per rank, and prints per rank and cycle the
 * messages and bytes each kind of traffic sends, the peers, the largest tag, the arena, and what
 * rank 0 gathers for one output.
 *
 * <p>These are counts, not times: they do not depend on the machine or its load. Per-cycle figures
 * are the difference between a run of CYCLES cycles (default 10) and one of zero cycles (set-up,
 * initial refinement and outputs only), over CYCLES, so set-up traffic does not inflate them. The
 * largest tag is that of a third, set-up only run with one message per channel ({@code
 * parthenon/comm/coalesce=false}), where every channel of a rank pair needs a tag of its own;
 * coalesced messages use one tag per rank pair.
 */
public final class WeakScaling {
  private static final Duration RUN_LIMIT = Duration.ofMinutes(20);

  /** One deck of the study and how it grows with the ranks. */
  record Study(String name, String deck, int blockCells, List<String> extra) {}

  /** What one run of one deck on some ranks counted, every rank's traffic included. */
  record Counts(RankTraffic[] ranks, int[] blocks, int[] arenaDoubles, int outputs) {}

  private WeakScaling() {}

  /** Entry point; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException {
    int maxRanks = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Path inputs = Path.of(System.getProperty("metope.root", ".")).resolve("inputs");
    List<Study> studies = List.of(
        new Study("uniform", inputs.resolve("advection.in").toString(), 16, List.of()),
        new Study("adaptive", inputs.resolve("advection_amr_2d.in").toString(), 8,
            List.of("parthenon/time/tlim=1.0", "parthenon/output4/dt=100",
                "parthenon/output3/dt=100")));
    System.out.printf(Locale.ROOT, "weak scaling counts: %d cycles, 8 root blocks per rank, "
        + "load %s%n", cycles, Files.readString(Path.of("/proc/loadavg")).trim());
    for (Study study : studies) {
      System.out.printf(Locale.ROOT, "%n%s (%s, %d^3 cells per block), per rank per cycle "
          + "(mean over ranks / max):%n", study.name(), study.deck(), study.blockCells());
      System.out.println("| ranks | blocks (total, max/rank) | bval msgs | bval KiB | fcor msgs "
          + "| fcor KiB | remesh msgs | remesh KiB | collectives | coll. bytes | peers (max) "
          + "| max tag (uncoalesced) | base arena (Mi doubles, max) | rank 0 gathers per output (MiB) | peak RSS so far |");
      System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
      for (int p = 1; p <= maxRanks; p *= 2) {
        Counts setup = run(study, p, 0, List.of());
        Counts timed = run(study, p, cycles, List.of());
        Counts perChannel = run(study, p, 0, List.of("parthenon/comm/coalesce=false"));
        System.out.println(row(p, setup, timed, cycles, perChannel) + " "
            + PeakResidentMemory.ofThisProcess().replace("peak RSS ", "") + " |");
      }
    }
  }

  /** The deck's overrides for {@code ranks} ranks: eight root blocks each, doubling x, y, z. */
  static List<String> overrides(Study study, int ranks, int cycles) {
    int[] n = {2, 2, 2};
    for (int r = 1, axis = 0; r < ranks; r *= 2, axis = (axis + 1) % 3) {
      n[axis] *= 2;
    }
    List<String> o = new ArrayList<>(study.extra());
    for (int d = 0; d < 3; d++) {
      o.add("parthenon/mesh/nx" + (d + 1) + "=" + n[d] * study.blockCells());
      o.add("parthenon/meshblock/nx" + (d + 1) + "=" + study.blockCells());
    }
    o.add("parthenon/time/nlim=" + cycles);
    o.add("parthenon/time/ncycle_out=0");
    return o;
  }

  /** Runs {@code study} on {@code ranks} in-process ranks for {@code cycles} cycles, counting. */
  static Counts run(Study study, int ranks, int cycles, List<String> more) throws IOException {
    return run(study, ranks, cycles, more, false);
  }

  /**
   * {@link #run(Study, int, int, List)}; {@code wallTimeLimit}: with a wall-time limit (an hour
   * away), so the driver checks it every cycle.
   */
  static Counts run(Study study, int ranks, int cycles, List<String> more, boolean wallTimeLimit)
      throws IOException {
    Path dir = Files.createTempDirectory("metope-weak");
    RankTraffic[] traffic = new RankTraffic[ranks];
    int[] blocks = new int[ranks];
    int[] arena = new int[ranks];
    try {
      InProcessRun.run(ranks, RUN_LIMIT, world -> {
        CountingCommunicator comm = new CountingCommunicator(world, new RankTraffic(ranks),
            TrafficKind.WORLD);
        List<String> o = new ArrayList<>(overrides(study, ranks, cycles));
        o.addAll(more);
        ParameterInput pin = ParameterInput.load(Path.of(study.deck()), o);
        PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8);
        Mesh mesh = ApplicationRunner.simulate(new AdvectionApplication(),
            new ApplicationRunner.Launch(pin, wallTimeLimit
                ? new RunOptions(dir, System.nanoTime() + 3_600_000_000_000L, discard)
                : RunOptions.of(dir, discard), discard, comm,
                InOneBoundaryCommunication::fromInput)).mesh();
        traffic[world.rank()] = comm.traffic();
        blocks[world.rank()] = mesh.blocks().size();
        arena[world.rank()] = mesh.meshData("base").get(0).data().length;
      });
      int outputs;
      try (Stream<Path> files = Files.list(dir)) {
        outputs = (int) files.filter(f -> f.toString().endsWith(".phdf")).count();
      }
      return new Counts(traffic, blocks, arena, outputs);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
  }

  /** One table row: per-cycle figures are (timed - setup) / cycles. */
  static String row(int ranks, Counts setup, Counts timed, int cycles, Counts perChannel) {
    StringBuilder s = new StringBuilder();
    int total = 0;
    int maxBlocks = 0;
    int maxArena = 0;
    for (int r = 0; r < ranks; r++) {
      total += timed.blocks()[r];
      maxBlocks = Math.max(maxBlocks, timed.blocks()[r]);
      maxArena = Math.max(maxArena, timed.arenaDoubles()[r]);
    }
    s.append(String.format(Locale.ROOT, "| %d | %d, %d |", ranks, total, maxBlocks));
    for (TrafficKind k : new TrafficKind[] {TrafficKind.BOUNDARY, TrafficKind.FLUX_CORRECTION,
        TrafficKind.REMESH}) {
      s.append(meanMax(setup, timed, cycles, k, true, 1)).append(" |");
      s.append(meanMax(setup, timed, cycles, k, false, 1024)).append(" |");
    }
    s.append(collectives(setup, timed, cycles, false)).append(" |");
    s.append(collectives(setup, timed, cycles, true)).append(" |");
    int peers = 0;
    int tag = -1;
    for (RankTraffic t : timed.ranks()) {
      peers = Math.max(peers, t.peerCount());
    }
    for (RankTraffic t : perChannel.ranks()) {
      tag = Math.max(tag, t.maxTag);
    }
    long gathered = 0;
    for (RankTraffic t : setup.ranks()) {
      gathered += t.bytes[TrafficKind.OUTPUT_GATHER.ordinal()];
    }
    double perOutput = setup.outputs() == 0 ? 0 : (double) gathered / setup.outputs();
    s.append(String.format(Locale.ROOT, " %d | %d | %.2f | %.2f (%d outputs) |", peers, tag,
        maxArena / 1048576.0, perOutput / 1048576.0, setup.outputs()));
    return s.toString();
  }

  private static String meanMax(Counts setup, Counts timed, int cycles, TrafficKind k,
      boolean messages, double unit) {
    double sum = 0;
    double max = 0;
    int n = timed.ranks().length;
    for (int r = 0; r < n; r++) {
      long a = messages ? timed.ranks()[r].messages[k.ordinal()]
          : timed.ranks()[r].bytes[k.ordinal()];
      long b = messages ? setup.ranks()[r].messages[k.ordinal()]
          : setup.ranks()[r].bytes[k.ordinal()];
      double v = (a - b) / (double) cycles / unit;
      sum += v;
      max = Math.max(max, v);
    }
    return String.format(Locale.ROOT, " %.3g / %.3g", sum / n, max);
  }

  private static String collectives(Counts setup, Counts timed, int cycles, boolean bytes) {
    double max = 0;
    for (int r = 0; r < timed.ranks().length; r++) {
      long a = 0;
      long b = 0;
      for (TrafficKind k : TrafficKind.values()) {
        a += bytes ? timed.ranks()[r].collectiveBytes[k.ordinal()]
            : timed.ranks()[r].collectives[k.ordinal()];
        b += bytes ? setup.ranks()[r].collectiveBytes[k.ordinal()]
            : setup.ranks()[r].collectives[k.ordinal()];
      }
      max = Math.max(max, (a - b) / (double) cycles);
    }
    return String.format(Locale.ROOT, " %.3g", max);
  }
}
