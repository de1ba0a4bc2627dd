package org.metope.test.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./metope bench scaling DECK [REPEATS] [block/key=value ...]}: runs a deck on one core and
 * on two cores in each way Metope uses a second core (task threads in one rank, two MPJ ranks on
 * the multicore device, two on niodev), interleaved, and prints a table of zone-cycles per wall
 * second: the cold rate over the first {@value #CYCLES} cycles (what a short run sees, JIT warm-up
 * included), the warm rate after {@code perf_cycle_offset = }{@value #WARM_OFFSET}, the speed-up
 * and parallel efficiency of the warm rate against one core, the warm-up share of the cold run,
 * the time from starting the launcher to the first cycle's status line, and the CPU seconds of
 * the cold run (every process and thread of it, start-up and JIT included; {@link
 * ProcessTreeCpu}) against the one-core run's: unlike the rates, that ratio hardly depends on
 * what else the machine runs, so it measures a mode's overhead (spinning, copies, a second
 * JVM, serial launcher work) on a loaded machine too. The JIT columns are the JIT compiler
 * threads' part of that CPU time: over the whole cold run, and in the warm run from the status
 * line of cycle {@value #WARM_OFFSET} to the summary line (the window of the warm rate), which
 * says how much of the warm rate is still warm-up in each mode. The last column is the peak
 * resident memory of the largest process of the cold run (one rank's JVM).
 *
 * <p>The one-core run is the baseline: a rank pinned to one CPU, as on a full cluster node, where
 * its JIT compilers and collector cannot borrow another core. "1 rank, unpinned" is the same run
 * free to use both cores; its rate against the baseline is what a rank loses to its own JVM when
 * pinned. Where {@code mpirun} is on the path, two ranks of the MPI device are three modes: as
 * {@code ./metope -np 2 --dev mpi} starts them (mpirun binds each rank to one core, so each JVM
 * sees one CPU, takes the launcher's one-CPU JIT policy and compiles on its cells' core), unbound
 * ({@code METOPE_MPIRUN_OPTS=--bind-to none}: JVMs as free as MPJ multicore's one), and with
 * {@code MPI_THREAD_SERIALIZED} (Open MPI without its thread-multiple locking; the device's own
 * lock instead).
 *
 * <p>{@code parthenon/time/nlim=N} and {@code parthenon/time/perf_cycle_offset=M} among the
 * overrides set the bench's own window (default {@value #CYCLES} cycles, warm after cycle {@value
 * #WARM_OFFSET}), e.g. 200 and 50 for a rate near steady state; the table's headings name the
 * window, and a run that stops before cycle N (its {@code tlim} came first) is an error, not a
 * shorter window.
 *
 * <p>Cores are fixed with {@code taskset} (one core: CPU 0; two: CPUs 0 and 1), so a one-core run
 * cannot borrow the second core for its JIT or garbage collector. Each figure is the median of the
 * repeats, with the range. Nothing else should run meanwhile; the load average before and after is
 * printed so a reader can judge.
 */
public final class ScalingBenchmark {
  static final int CYCLES = 20;
  static final int WARM_OFFSET = 5;
  private static final String NLIM = "parthenon/time/nlim=";
  private static final String OFFSET = "parthenon/time/perf_cycle_offset=";
  private static final long RUN_LIMIT_SECONDS = 600;
  private static final Pattern RATE = Pattern.compile("^zone-cycles/wallsecond = (\\S+)");
  private static final Pattern LAST_CYCLE = Pattern.compile("^time=\\S+ cycle=(\\d+)$");
  private static final Pattern BLOCK_ROW = Pattern.compile("^\\s+\\d+\\s+\\d+\\s+\\d+\\s");

  /** The cycles of each run and the cycle after which the warm rate is taken. */
  record Window(int cycles, int warmOffset) {}

  /** One way of running the deck: launcher arguments, deck overrides and launcher environment. */
  record Mode(String name, int cores, List<String> launcherArgs, List<String> overrides,
      Map<String, String> environment) {
    Mode(String name, int cores, List<String> launcherArgs, List<String> overrides) {
      this(name, cores, launcherArgs, overrides, Map.of());
    }
  }

  /**
   * What one run printed, its CPU seconds, the JIT compilers' share of them, and that share in
   * the window from the status line of cycle {@code perf_cycle_offset} to the summary line.
   */
  record Run(double rate, double startSeconds, double cpuSeconds, double compilerShare,
      double windowCompilerShare, double peakRssMb) {}

  private ScalingBenchmark() {}

  /** Entry point; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("metope: bench scaling needs a deck: bench scaling DECK [REPEATS] "
          + "[block/key=value ...]");
      System.exit(2);
    }
    Path deck = Path.of(args[0]).toAbsolutePath();
    if (!Files.isRegularFile(deck)) {
      System.err.println("metope: bench scaling: " + args[0] + ": no such deck");
      System.exit(2);
    }
    int repeats = 3;
    int cycles = CYCLES;
    int warmOffset = WARM_OFFSET;
    List<String> overrides = new ArrayList<>();
    for (String arg : Arrays.asList(args).subList(1, args.length)) {
      if (arg.startsWith(NLIM)) {
        cycles = positive("parthenon/time/nlim", arg.substring(NLIM.length()));
      } else if (arg.startsWith(OFFSET)) {
        warmOffset = positive("parthenon/time/perf_cycle_offset", arg.substring(OFFSET.length()));
      } else if (arg.contains("=")) {
        overrides.add(arg);
      } else {
        repeats = positive("REPEATS", arg);
      }
    }
    if (warmOffset >= cycles) {
      fail("the warm window needs perf_cycle_offset below nlim: perf_cycle_offset=" + warmOffset
          + ", nlim=" + cycles);
    }
    Window window = new Window(cycles, warmOffset);
    Path launcher = Path.of(System.getProperty("metope.root", ".")).resolve("metope")
        .toAbsolutePath();
    List<Mode> modes = modes(launcher, deck, overrides);
    System.out.printf(Locale.ROOT, "deck %s, %d cycles, warm after cycle %d, %d repeats, load "
        + "before: %s%n", deck, cycles, warmOffset, repeats, loadAverage());
    double[][][] results = new double[modes.size()][7][repeats];
    for (int r = 0; r < repeats; r++) {
      for (int m = 0; m < modes.size(); m++) {
        Run cold = run(launcher, deck, modes.get(m), overrides, cycles, 0);
        Run warm = run(launcher, deck, modes.get(m), overrides, cycles, warmOffset);
        results[m][0][r] = cold.rate();
        results[m][1][r] = warm.rate();
        results[m][2][r] = cold.startSeconds();
        results[m][3][r] = cold.cpuSeconds();
        results[m][4][r] = cold.compilerShare();
        results[m][5][r] = warm.windowCompilerShare();
        results[m][6][r] = cold.peakRssMb();
        System.err.printf(Locale.ROOT, "  repeat %d, %s: cold %.3g, warm %.3g, start %.2f s, "
            + "CPU %.2f s, JIT %.0f %% (run), %.0f %% (warm window), peak RSS %.0f MB%n", r + 1,
            modes.get(m).name(), cold.rate(), warm.rate(), cold.startSeconds(), cold.cpuSeconds(),
            100 * cold.compilerShare(), 100 * warm.windowCompilerShare(), cold.peakRssMb());
      }
    }
    System.out.print(table(modes, results, window));
    System.out.println("load after: " + loadAverage());
  }

  /** {@code text}, the value of {@code name}, as a positive integer, or a one-line exit. */
  private static int positive(String name, String text) {
    try {
      int value = Integer.parseInt(text);
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    fail(name + " = \"" + text + "\": expected a positive integer");
    return 0;
  }

  private static void fail(String message) {
    System.err.println("metope: bench scaling: " + message);
    System.exit(2);
  }

  /** The four ways, with task threads over four partitions unless the deck's overrides say. */
  static List<Mode> modes(Path launcher, Path deck, List<String> overrides) throws Exception {
    List<String> threads = new ArrayList<>(List.of("metope/threads=2"));
    if (overrides.stream().noneMatch(o -> o.startsWith("parthenon/mesh/pack_size="))) {
      int blocks = initialBlocks(launcher, deck, overrides);
      threads.add("parthenon/mesh/pack_size=" + Math.max(1, (blocks + 3) / 4));
    }
    List<Mode> modes = new ArrayList<>(List.of(
        new Mode("1 rank (pinned to one CPU)", 1, List.of(), List.of()),
        new Mode("1 rank, unpinned", 2, List.of(), List.of()),
        new Mode("1 rank, 2 task threads", 2, List.of(), threads),
        new Mode("2 MPJ ranks, multicore", 2, List.of("-np", "2"), List.of()),
        new Mode("2 MPJ ranks, niodev", 2, List.of("-np", "2", "--dev", "niodev"), List.of())));
    if (onPath("mpirun")) {
      List<String> mpi = List.of("-np", "2", "--dev", "mpi");
      modes.add(new Mode("2 MPI ranks", 2, mpi, List.of()));
      modes.add(new Mode("2 MPI ranks, --bind-to none", 2, mpi, List.of(),
          Map.of("METOPE_MPIRUN_OPTS", "--bind-to none")));
      modes.add(new Mode("2 MPI ranks, MPI_THREAD_SERIALIZED", 2, mpi, List.of(),
          Map.of("METOPE_JAVA_OPTS", "-Dmetope.mpi.threads=serialized")));
    }
    return modes;
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static int initialBlocks(Path launcher, Path deck, List<String> overrides)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(launcher.toString(), "-i", deck.toString(),
        "-m", "1"));
    command.addAll(overrides);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    int blocks = 0;
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (BLOCK_ROW.matcher(line).find()) {
          blocks++;
        }
      }
    }
    if (p.waitFor() != 0 || blocks == 0) {
      throw new IllegalStateException("metope -m 1 failed for deck=" + deck);
    }
    return blocks;
  }

  /** One run of {@code mode}, {@code cycles} long, with the given {@code perf_cycle_offset}. */
  static Run run(Path launcher, Path deck, Mode mode, List<String> overrides, int cycles,
      int perfOffset) throws IOException, InterruptedException {
    Path outputs = Files.createTempDirectory("metope-bench-scaling");
    List<String> command = new ArrayList<>(List.of("taskset", "-c", mode.cores() == 1 ? "0"
        : "0,1", launcher.toString()));
    command.addAll(mode.launcherArgs());
    command.addAll(List.of("-i", deck.toString(), "-d", outputs.toString(),
        NLIM + cycles, OFFSET + perfOffset));
    command.addAll(overrides);
    command.addAll(mode.overrides());
    long start = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(mode.environment());
    Process p = builder.start();
    ProcessTreeCpu cpu = new ProcessTreeCpu(p);
    String windowStart = "cycle=" + perfOffset + " ";
    ProcessTreeCpu.Sample atWindowStart = null;
    ProcessTreeCpu.Sample atSummary = null;
    double startSeconds = Double.NaN;
    double rate = Double.NaN;
    int lastCycle = -1;
    StringBuilder output = new StringBuilder();
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        output.append(line).append('\n');
        if (Double.isNaN(startSeconds) && line.startsWith("cycle=0 ")) {
          startSeconds = (System.nanoTime() - start) * 1e-9;
        }
        if (atWindowStart == null && line.startsWith(windowStart)) {
          atWindowStart = cpu.now();
        }
        Matcher last = LAST_CYCLE.matcher(line);
        if (last.find()) {
          lastCycle = Integer.parseInt(last.group(1));
        }
        Matcher m = RATE.matcher(line);
        if (m.find()) {
          rate = Double.parseDouble(m.group(1));
          atSummary = cpu.now();
        }
      }
    }
    boolean ended = p.waitFor(RUN_LIMIT_SECONDS, TimeUnit.SECONDS);
    ProcessTreeCpu.Sample whole = cpu.stop();
    deleteTree(outputs);
    if (!ended || p.exitValue() != 0 || Double.isNaN(rate)) {
      throw new IllegalStateException("run failed: mode=" + mode.name() + ", command="
          + String.join(" ", command) + "\n" + output);
    }
    if (lastCycle != cycles) {
      fail("the run stopped at cycle " + lastCycle + ", before nlim=" + cycles + " (the deck's "
          + "tlim came first: raise parthenon/time/tlim)");
    }
    double window = atWindowStart == null || atSummary == null ? Double.NaN
        : atSummary.since(atWindowStart).compilerShare();
    return new Run(rate, startSeconds, whole.cpuSeconds(), whole.compilerShare(), window,
        whole.peakRssMb());
  }

  /** The markdown table of medians and ranges. */
  static String table(List<Mode> modes, double[][][] results, Window window) {
    StringBuilder s = new StringBuilder();
    s.append("| mode | cores | cold rate (").append(window.cycles()).append(" cycles) | warm rate "
        + "(after cycle ").append(window.warmOffset()).append(") | speed-up (warm) | efficiency "
        + "| warm-up share | start to cycle 0 | CPU s (cold run) | CPU / 1 core | JIT share (cold run) "
        + "| JIT share (warm window) | peak RSS of one process |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    double oneCore = median(results[0][1]);
    double oneCoreCpu = median(results[0][3]);
    for (int m = 0; m < modes.size(); m++) {
      double cold = median(results[m][0]);
      double warm = median(results[m][1]);
      double speedup = warm / oneCore;
      s.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %.2f | %.0f %% | %.0f %% | "
          + "%.2f s | %s | %.2f | %.0f %% | %.0f %% | %.0f MB |%n", modes.get(m).name(),
          modes.get(m).cores(), range(results[m][0]), range(results[m][1]), speedup,
          100 * speedup / modes.get(m).cores(), 100 * (1 - cold / warm), median(results[m][2]),
          range(results[m][3]), median(results[m][3]) / oneCoreCpu,
          100 * median(results[m][4]), 100 * median(results[m][5]), median(results[m][6])));
    }
    return s.toString();
  }

  private static String range(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%.3g (%.3g - %.3g)", median(values), sorted[0],
        sorted[sorted.length - 1]);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var all = Files.walk(dir)) {
      for (Path p : all.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
