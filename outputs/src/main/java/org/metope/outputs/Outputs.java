package org.metope.outputs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskThreadPool;

/**
 * Every output of a run, read from the deck's {@code <parthenon/outputN>} blocks in deck order,
 * and the rule for when each writes (Parthenon's {@code Outputs}).
 *
 * <p>Per block: {@code file_type} (required: {@code hst}, {@code hdf5} or {@code rst}), {@code dt}
 * (default {@code tlim}; negative disables the block), {@code next_time}, {@code file_number},
 * {@code id} (default {@code outN}), {@code data_format} (default {@code %12.5e}), {@code
 * analysis_output}; for history outputs {@code packages}; for HDF5 outputs and restart files
 * {@code dn} (cycles between outputs, default -1: none; a block with {@code dn} and no {@code dt}
 * writes by cycle only), {@code next_n} and the keys of {@link Hdf5Settings}. The file name starts
 * with {@code <parthenon/job> problem_id} (default {@code parthenon}). Parthenon's types {@code
 * vtk}, {@code ascent} and {@code histogram} are accepted so that Parthenon decks run unchanged,
 * but skipped with a warning; any other type is a deck error. At most one block may be a restart
 * output; it writes after the others, so the deck it stores holds their advanced counters.
 *
 * <p>An output writes at cycle 0, whenever the time has reached its next output time or the cycle
 * its next output cycle, when the time has reached {@code tlim}, and at the end of the run.
 */
public final class Outputs {
  /** Parthenon's output types that Metope recognises but does not write yet. */
  public static final List<String> NOT_YET_WRITTEN = List.of("vtk", "ascent", "histogram");

  private static final String PREFIX = "parthenon/output";
  /** The most digits of an output block's number: any such number fits in an int. */
  private static final int MAX_BLOCK_NUMBER_DIGITS = 9;

  private final List<OutputType> outputs = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  /** What the history files of the current round have reduced ({@link #makeOutputs}). */
  private final HistoryRound historyRound = new HistoryRound();
  private RenameQueue renames;

  /**
   * Reads the output blocks of {@code pin} for a run whose clock is {@code tm}.
   *
   * @param directory where output files are written
   * @throws org.metope.mesh.input.InputError for a bad output block
   */
  public Outputs(Mesh mesh, ParameterInput pin, SimTime tm, Path directory) {
    if (mesh.myRank() == 0) {
      AtomicFile.removeStaleTemporaries(directory);
    }
    pin.declareKnown("parthenon/job", "problem_id");
    OutputType restart = null;
    for (String block : pin.blockNamesWithPrefix(PREFIX)) {
      String type = pin.doesParameterExist(block, "file_type") ? pin.getString(block, "file_type")
          : null;
      boolean hdf5 = "hdf5".equals(type) || "rst".equals(type);
      int dn = hdf5 ? pin.getOrAddInteger(block, "dn", -1) : -1;
      double dt = dn > 0 && !pin.doesParameterExist(block, "dt") ? -1.0
          : pin.getOrAddRealOrInfinity(block, "dt", tm.tlim());
      if (dt < 0.0 && dn <= 0) {
        continue;
      }
      double nextTime = dt >= 0.0 ? pin.getOrAddReal(block, "next_time", tm.time()) : tm.time();
      int fileNumber = pin.getOrAddInteger(block, "file_number", 0);
      String basename = fileNamePart(pin, "parthenon/job", "problem_id",
          pin.getOrAddString("parthenon/job", "problem_id", "parthenon"));
      int number = blockNumber(pin, block);
      String id = fileNamePart(pin, block, "id", pin.getOrAddString(block, "id", "out" + number));
      type = pin.getString(block, "file_type");
      boolean analysis = pin.getOrAddBoolean(block, "analysis_output", false);
      if (NOT_YET_WRITTEN.contains(type)) {
        pin.declareKnown(block, pin.parameterNames(block).toArray(new String[0]));
        warnings.add("<" + block + "> file_type = " + type + ": Metope does not write " + type
            + " outputs yet; this output is skipped");
        continue;
      }
      if (!type.equals("hst") && !hdf5) {
        throw pin.error(block, "file_type", "hst, hdf5 or rst (or one of Parthenon's "
            + String.join(", ", NOT_YET_WRITTEN) + ", which Metope skips)");
      }
      List<String> packages = pin.doesParameterExist(block, "packages")
          ? pin.getStringList(block, "packages") : List.of();
      String format = dataFormat(pin, block);
      OutputParameters params = new OutputParameters(block, number, type, dt, dn, basename, id,
          format, packages, analysis);
      if (!hdf5) {
        outputs.add(historyFile(params, mesh, pin, nextTime, fileNumber, directory));
        continue;
      }
      Hdf5Output output = hdf5Output(params, mesh, pin, tm, nextTime, fileNumber, directory);
      warnings.addAll(output.warnings());
      if (!output.settings().restart()) {
        outputs.add(output);
      } else if (restart != null) {
        throw pin.blockError(block, "is a second restart output",
            "at most one output block with file_type = rst");
      } else {
        restart = output;
      }
    }
    if (restart != null) {
      // Last, so that the deck it stores holds the other outputs' advanced counters.
      outputs.add(restart);
    }
  }

  /** The {@code data_format} of output block {@code block}, with its leading space. */
  private static String dataFormat(ParameterInput pin, String block) {
    String format = " " + pin.getOrAddString(block, "data_format", "%12.5e");
    try {
      PrintfFormat.parse(format);
    } catch (IllegalArgumentException e) {
      throw pin.error(block, "data_format", "a C format of one number such as %12.5e"
          + " (conversions e, E, f, F, g, G)");
    }
    return format;
  }

  /** A history file, with a warning when it appends to an earlier run's file. */
  private HistoryFile historyFile(OutputParameters params, Mesh mesh, ParameterInput pin,
      double nextTime, int fileNumber, Path directory) {
    HistoryFile history = new HistoryFile(params, mesh, pin, nextTime, fileNumber, directory,
        historyRound);
    if (mesh.myRank() == 0 && history.appendsToAnEarlierRun()) {
      warnings.add("<" + params.blockName() + "> " + history.file().getFileName() + " exists:"
          + " this run appends its records after the old ones, as Parthenon does (remove the"
          + " file, or write elsewhere with -d, for a file of this run only)");
    }
    return history;
  }

  private static Hdf5Output hdf5Output(OutputParameters params, Mesh mesh, ParameterInput pin,
      SimTime tm, double nextTime, int fileNumber, Path directory) {
    String block = params.blockName();
    int nextCycle = params.dn() > 0 ? pin.getOrAddInteger(block, "next_n", tm.ncycle())
        : tm.ncycle();
    Hdf5Settings settings = Hdf5Settings.fromInput(pin, block, params.fileType().equals("rst"));
    return new Hdf5Output(params, settings, mesh, pin, nextTime, nextCycle, fileNumber,
        directory);
  }

  /**
   * {@code value}, which becomes part of output file names, if it is a plain name: outputs stay
   * in the output directory ({@code -d}), so a path ({@code ../x}, {@code /tmp/x}) is refused.
   */
  private static String fileNamePart(ParameterInput pin, String block, String key,
      String value) {
    boolean plain = !value.isEmpty() && !value.equals(".") && !value.equals("..")
        && value.chars().noneMatch(c -> c == '/' || c == '\\' || c < 32);
    if (!plain) {
      throw pin.error(block, key, "a plain file name without '/' (outputs are written into the"
          + " output directory, -d)");
    }
    return value;
  }

  private static int blockNumber(ParameterInput pin, String block) {
    String digits = block.substring(PREFIX.length());
    int end = 0;
    while (end < digits.length() && Character.isDigit(digits.charAt(end))) {
      end++;
    }
    if (end > MAX_BLOCK_NUMBER_DIGITS) {
      throw pin.blockError(block, "has the number " + digits.substring(0, end),
          "an output number of at most " + MAX_BLOCK_NUMBER_DIGITS + " digits");
    }
    return end == 0 ? 0 : Integer.parseInt(digits.substring(0, end));
  }

  /** Lines for the user about output blocks that are skipped. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * Rank 0, after a run on several ranks that wrote HDF5 or restart files: one line saying in how
   * many of them every rank wrote its own values into the file ({@code <metope>
   * shared_file_writes}, docs/CLUSTER.md); null otherwise.
   */
  public String sharedWriteSummary(int ranks) {
    int files = 0;
    int inPlace = 0;
    for (OutputType out : outputs) {
      if (out instanceof Hdf5Output h) {
        files += h.filesWritten();
        inPlace += h.filesWrittenInPlace();
      }
    }
    if (ranks < 2 || files == 0) {
      return null;
    }
    return "HDF5 files: every rank wrote its own values into " + inPlace + " of " + files
        + " (the others' values were sent to rank 0)";
  }

  /** The outputs that write, in deck order. */
  public List<OutputType> outputs() {
    return List.copyOf(outputs);
  }

  /**
   * Lets the outputs use {@code pool}'s threads (null: the calling thread only); the history
   * outputs evaluate their per-block functions on them ({@link HistoryFile#useThreads}).
   */
  public void useThreads(TaskThreadPool pool) {
    for (OutputType out : outputs) {
      out.useThreads(pool);
    }
  }

  /**
   * Lets rank 0 flush its HDF5 and restart files to disk and rename them into place on a thread
   * of their own ({@link RenameQueue}), in the order written, while the run goes on; {@link
   * #awaitWrites} waits for them.
   */
  public void renameInBackground() {
    renames = new RenameQueue();
    for (OutputType out : outputs) {
      if (out instanceof Hdf5Output h) {
        h.renameWith(renames);
      }
    }
  }

  /**
   * Returns once every file written so far is in place under its final name; throws the {@link
   * org.metope.mesh.DriverError} of a file that could not be renamed, on every rank. Collective.
   */
  public void awaitWrites() {
    for (OutputType out : outputs) {
      if (out instanceof Hdf5Output h) {
        h.awaitRenames();
        return;
      }
    }
  }

  /**
   * On a run that fails: waits, on this rank alone, until the files written so far are in place
   * (or could not be), so that they outlast the failure; adds a rename's failure to {@code
   * cause}'s suppressed exceptions.
   */
  public void awaitWritesAfter(Throwable cause) {
    if (renames == null) {
      return;
    }
    try {
      renames.await();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Writes every output that is due (Parthenon's {@code MakeOutputs}). {@code beforeOutput} runs
   * once before the first output that is not a history output (Parthenon's {@code
   * UserWorkBeforeOutput}). Collective over the mesh's ranks. History files due in one call take
   * the columns an earlier one of the call has reduced, up to the next other output ({@link
   * HistoryRound}): a package's history functions run once per call for all of them.
   */
  public void makeOutputs(Mesh mesh, SimTime tm, OutputSignal signal, Runnable beforeOutput) {
    makeOutputs(mesh, tm, signal, () -> {}, beforeOutput);
  }

  /**
   * {@link #makeOutputs(Mesh, SimTime, OutputSignal, Runnable)}, running {@code beforeAny} once
   * before the first output that is due, history included (a device-resident run brings the
   * fields to the host there).
   */
  public void makeOutputs(Mesh mesh, SimTime tm, OutputSignal signal, Runnable beforeAny,
      Runnable beforeOutput) {
    boolean any = true;
    boolean first = true;
    historyRound.clear();
    for (int o = 0; o < outputs.size(); o++) {
      OutputType out = outputs.get(o);
      OutputParameters p = out.parameters();
      boolean due = tm.ncycle() == 0 || (p.dt() >= 0.0 && tm.time() >= out.nextTime())
          || out.dueByCycle(tm.ncycle()) || tm.time() >= tm.tlim() || signal == OutputSignal.NOW
          || signal == OutputSignal.FINAL
          || (signal == OutputSignal.ANALYSIS && p.analysisOutput());
      if (!due) {
        continue;
      }
      if (any) {
        beforeAny.run();
        any = false;
      }
      if (first && !p.fileType().equals("hst")) {
        beforeOutput.run();
        first = false;
      }
      out.write(mesh, tm, signal);
      if (!p.fileType().equals("hst")) {
        // User work before it and its derived fields may have changed what history reads.
        historyRound.clear();
      }
    }
  }
}
