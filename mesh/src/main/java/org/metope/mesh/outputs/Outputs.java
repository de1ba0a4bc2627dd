package org.metope.mesh.outputs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.driver.SimTime;
import org.metope.mesh.input.ParameterInput;

/**
 * Every output of a run, read from the deck's {@code <parthenon/outputN>} blocks in deck order,
 * and the rule for when each writes (Parthenon's {@code Outputs}).
 *
 * <p>Per block: {@code file_type} (required), {@code dt} (default {@code tlim}; negative disables
 * the block), {@code next_time}, {@code file_number}, {@code id} (default {@code outN}), {@code
 * data_format} (default {@code %12.5e}), {@code analysis_output}, and for history outputs {@code
 * packages}. The file name starts with {@code <parthenon/job> problem_id} (default {@code
 * parthenon}). Metope writes {@code hst} outputs; Parthenon's other types ({@code hdf5}, {@code
 * rst}, {@code vtk}, {@code ascent}, {@code histogram}) are accepted so that Parthenon decks run
 * unchanged, but skipped with a warning; any other type is a deck error.
 *
 * <p>An output writes at cycle 0, whenever the time has reached its next output time, when the
 * time has reached {@code tlim}, and at the end of the run.
 */
public final class Outputs {
  /** Parthenon's output types that Metope recognises but does not write yet. */
  public static final List<String> NOT_YET_WRITTEN =
      List.of("hdf5", "rst", "vtk", "ascent", "histogram");

  private static final String PREFIX = "parthenon/output";

  private final List<OutputType> outputs = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();

  /**
   * Reads the output blocks of {@code pin} for a run whose clock is {@code tm}.
   *
   * @param directory where output files are written
   * @throws org.metope.mesh.input.InputError for a bad output block
   */
  public Outputs(Mesh mesh, ParameterInput pin, SimTime tm, Path directory) {
    for (String block : pin.blockNamesWithPrefix(PREFIX)) {
      double dt = pin.getOrAddReal(block, "dt", tm.tlim());
      if (dt < 0.0) {
        continue;
      }
      double nextTime = pin.getOrAddReal(block, "next_time", tm.time());
      int fileNumber = pin.getOrAddInteger(block, "file_number", 0);
      String basename = pin.getOrAddString("parthenon/job", "problem_id", "parthenon");
      int number = blockNumber(block);
      String id = pin.getOrAddString(block, "id", "out" + number);
      String type = pin.getString(block, "file_type");
      boolean analysis = pin.getOrAddBoolean(block, "analysis_output", false);
      if (NOT_YET_WRITTEN.contains(type)) {
        warnings.add("<" + block + "> file_type = " + type + ": Metope does not write " + type
            + " outputs yet; this output is skipped");
        continue;
      }
      if (!type.equals("hst")) {
        throw pin.error(block, "file_type", "hst (or one of Parthenon's "
            + String.join(", ", NOT_YET_WRITTEN) + ", which Metope skips)");
      }
      List<String> packages = pin.doesParameterExist(block, "packages")
          ? pin.getStringList(block, "packages") : List.of();
      String format = " " + pin.getOrAddString(block, "data_format", "%12.5e");
      try {
        PrintfFormat.parse(format);
      } catch (IllegalArgumentException e) {
        throw pin.error(block, "data_format", "a C format of one number such as %12.5e"
            + " (conversions e, E, f, F, g, G)");
      }
      OutputParameters params = new OutputParameters(block, number, type, dt, basename, id,
          format, packages, analysis);
      outputs.add(new HistoryFile(params, mesh, pin, nextTime, fileNumber, directory));
    }
  }

  private static int blockNumber(String block) {
    String digits = block.substring(PREFIX.length());
    int end = 0;
    while (end < digits.length() && Character.isDigit(digits.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(digits.substring(0, end));
  }

  /** Lines for the user about output blocks that are skipped. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** The outputs that write, in deck order. */
  public List<OutputType> outputs() {
    return List.copyOf(outputs);
  }

  /**
   * Writes every output that is due (Parthenon's {@code MakeOutputs}). {@code beforeOutput} runs
   * once before the first output that is not a history output (Parthenon's {@code
   * UserWorkBeforeOutput}). Collective over the mesh's ranks.
   */
  public void makeOutputs(Mesh mesh, SimTime tm, OutputSignal signal, Runnable beforeOutput) {
    boolean first = true;
    for (OutputType out : outputs) {
      OutputParameters p = out.parameters();
      boolean due = p.dt() >= 0.0 && (tm.ncycle() == 0 || tm.time() >= out.nextTime()
          || tm.time() >= tm.tlim() || signal == OutputSignal.NOW
          || signal == OutputSignal.FINAL
          || (signal == OutputSignal.ANALYSIS && p.analysisOutput()));
      if (!due) {
        continue;
      }
      if (first && !p.fileType().equals("hst")) {
        beforeOutput.run();
        first = false;
      }
      out.write(mesh, tm, signal);
    }
  }
}
