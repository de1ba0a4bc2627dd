package org.metope.driver;

import org.metope.mesh.SimTime;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshStructureReport;
import org.metope.mesh.MeshRefinement;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MetadataFlag;
import org.metope.outputs.PrintfFormat;

/**
 * What rank 0 of a driver prints, in Parthenon's words and number formats, and the performance
 * counters behind it: the variables in use, a status line every {@code ncycle_out} cycles,
 *
 * <pre>
 * cycle=1 time=7.0312500000000002e-03 dt=7.0312500000000002e-03 zone-cycles/wsec_step=3.73e+06
 *     wsec_total=9.92e-02 wsec_step=7.03e-02      (one line)
 * </pre>
 *
 * and the closing summary ({@code Driver completed.}, time and cycle, limits, {@code walltime
 * used}, {@code zone-cycles/wallsecond}). Zone-cycles count interior cells times cycles since the
 * last counter reset ({@code perf_cycle_offset}). As in Parthenon, whose status line switches its
 * output stream to {@code std::scientific} with two digits, the summary prints its numbers as
 * {@code %.2e} once a status line has been printed, and as C++'s default ({@code %g}) otherwise.
 */
final class DriverReport {
  private static final double NANOS = 1e-9;
  private static final PrintfFormat DEFAULT_STREAM = PrintfFormat.parse("%g");

  private final Mesh mesh;
  private final SimTime tm;
  private final PrintStream out;
  private final long cellsPerBlock;
  private long mainStart = System.nanoTime();
  private long cycleStart = mainStart;
  private long blockCycles;
  private long blockCyclesAtLastLine;
  private boolean scientific;
  /** Time in load balancing and refinement since the last status line, and since the reset. */
  private long amrNanosSinceLine;
  private long amrNanos;

  /** A report on {@code mesh}; {@code out} is null on ranks other than 0. */
  DriverReport(Mesh mesh, SimTime tm, PrintStream out) {
    this.mesh = mesh;
    this.tm = tm;
    this.out = out;
    long cells = 1;
    for (int axis = 0; axis < 3; axis++) {
      cells *= mesh.config().blockNx(axis);
    }
    this.cellsPerBlock = cells;
  }

  /** The variables of the run, then {@code Setup complete, executing driver...}. */
  void printSetup() {
    mainStart = System.nanoTime();
    if (out == null) {
      return;
    }
    StringBuilder s = new StringBuilder("# Variables in use:\n");
    s.append("# Name                      Metadata flags, package\n");
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      StringBuilder flags = new StringBuilder();
      for (MetadataFlag flag : f.metadata().flags()) {
        flags.append(camelCase(flag.name())).append(',');
      }
      s.append(String.format(Locale.ROOT, "%-27s %s%s%n", f.name(), flags, f.packageName()));
    }
    s.append("\nSetup complete, executing driver...\n");
    out.println(s);
  }

  private static String camelCase(String enumName) {
    StringBuilder s = new StringBuilder();
    for (String part : enumName.split("_")) {
      s.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
    }
    return s.toString();
  }

  /** Restarts the zone-cycle count (before the loop). */
  void resetBlockCycles() {
    blockCycles = 0;
  }

  /**
   * Restarts the zone-cycle count and the wall clock (at {@code perf_cycle_offset}). The count
   * at the last status line moves with it, so the next line's zone-cycles/wsec_step still counts
   * the cycles since that line. Parthenon zeroes only the count, and its next line shows a
   * negative rate.
   */
  void resetCounters() {
    blockCyclesAtLastLine -= blockCycles;
    blockCycles = 0;
    amrNanos = 0;
    mainStart = System.nanoTime();
  }

  /** Adds the time of one call to load balancing and adaptive refinement (Parthenon's wsec_AMR). */
  void addAmrTime(long nanos) {
    amrNanosSinceLine += nanos;
    amrNanos += nanos;
  }

  /** Counts one cycle over every block of the mesh. */
  void countCycle() {
    blockCycles += mesh.totalBlocks();
  }

  /** The status line when the cycle is a multiple of {@code ncycle_out}, and the mesh report. */
  void cycleDiagnostics() {
    if (out == null) {
      return;
    }
    if (tm.ncycleOut() != 0 && tm.ncycle() % tm.ncycleOut() == 0) {
      long now = System.nanoTime();
      double zoneCycles = (double) ((blockCycles - blockCyclesAtLastLine) * cellsPerBlock);
      double amr = amrNanosSinceLine * NANOS;
      double step = (now - cycleStart) * NANOS - amr;
      double total = (now - mainStart) * NANOS;
      String line = "cycle=" + tm.ncycle() + " time=" + e(tm.time(), 16) + " dt="
          + e(tm.dt(), 16) + " zone-cycles/wsec_step=" + e(zoneCycles / step, 2) + " wsec_total="
          + e(total, 2) + " wsec_step=" + e(step, 2);
      if (mesh.isAdaptive()) {
        line += " zone-cycles/wsec=" + e(zoneCycles / (step + amr), 2) + " wsec_AMR=" + e(amr, 2);
      }
      printAscii(line + System.lineSeparator());
      cycleStart = now;
      amrNanosSinceLine = 0;
      blockCyclesAtLastLine = blockCycles;
      scientific = true;
    }
    printMeshStructure();
  }

  /**
   * Parthenon's mesh summary: every {@code |ncycle_out_mesh|} cycles (cycle 0 included) and,
   * when {@code ncycle_out_mesh} is negative, also after every remesh, with the title saying which
   * (so {@code -1} prints it every cycle, as in Parthenon).
   */
  private void printMeshStructure() {
    int meshOut = tm.ncycleOutMesh();
    if (meshOut == 0) {
      return;
    }
    String title;
    if (meshOut < 0 && mesh.refinement() != null && mesh.refinement().modified()) {
      title = "-------------- New Mesh structure after (de)refinement -------------";
    } else if (tm.ncycle() % meshOut == 0) {
      title = "---------------------- Current Mesh structure ----------------------";
    } else {
      return;
    }
    printAscii(title + MeshStructureReport.renderSummary(mesh)
        + "--------------------------------------------------------------------\n");
  }

  /**
   * Writes ASCII {@code text} as its bytes, which are the same in every ASCII-compatible
   * encoding the stream may use. {@code print} would pass it through the stream's character
   * encoder, JDK code that runs once a cycle and stays interpreted: pinned to one CPU, about 15
   * of the 220 main-thread samples of the per-cycle framework on Parthenon's 2D adaptive deck.
   */
  private void printAscii(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    out.write(bytes, 0, bytes.length);
  }

  /** The closing lines: a last status line, how the run ended, and the performance. */
  void printSummary(DriverStatus status, boolean wallTimeExpired) {
    if (out == null) {
      return;
    }
    cycleDiagnostics();
    if (wallTimeExpired) {
      out.println("\nTerminating on wall-time limit");
    }
    out.println(switch (status) {
      case COMPLETE -> "\nDriver completed.";
      case TIMEOUT -> "\nDriver timed out.  Restart to continue.";
      case FAILED -> "\nDriver failed.";
    });
    out.println("time=" + number(tm.time()) + " cycle=" + tm.ncycle());
    out.println("tlim=" + number(tm.tlim()) + " nlim=" + tm.nlim());
    MeshRefinement.Statistics amr = mesh.refinement() == null ? null
        : mesh.refinement().statistics();
    if (mesh.isAdaptive()) {
      out.println("\nNumber of MeshBlocks = " + mesh.totalBlocks() + "; "
          + (amr == null ? 0 : amr.created()) + "  created, " + (amr == null ? 0 : amr.destroyed())
          + " destroyed during this simulation.");
    }
    double wtime = (System.nanoTime() - mainStart) * NANOS;
    out.println("\nwalltime used = " + number(wtime));
    out.println("zone-cycles/wallsecond = " + number(blockCycles * cellsPerBlock / wtime));
    if (amr != null) {
      double seconds = amrNanos * NANOS;
      out.println("remesh: " + amr.remeshes() + " times (" + amr.startupRemeshes()
          + " more at start-up), " + amr.created() + " blocks created, " + amr.destroyed()
          + " destroyed; load balancing and refinement " + e(seconds, 2) + " s ("
          + String.format(Locale.ROOT, "%.1f", 100.0 * seconds / wtime) + "% of walltime)");
    }
  }

  private String number(double value) {
    return scientific ? e(value, 2) : DEFAULT_STREAM.format(value);
  }

  private static String e(double value, int digits) {
    return PrintfFormat.scientific(value, digits);
  }
}
