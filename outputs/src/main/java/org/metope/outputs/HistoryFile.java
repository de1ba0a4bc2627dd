package org.metope.outputs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.comm.Communicator;
import org.metope.comm.GlobalOrderSum;
import org.metope.comm.ReduceOp;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskFailureException;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * The history output ({@code file_type = hst}, Parthenon's {@code HistoryOutput}): one line per
 * output time in {@code <problem_id>.<id>.hst}, with time, dt, cycle, the number of blocks, then
 * every selected package's history outputs.
 *
 * <p>Columns follow Parthenon's order: all sums, then all maxima, then all minima; within each,
 * packages in the order they were added, and within a package its scalar outputs before its
 * vector outputs (a vector output {@code v} of n components gives columns {@code v_0 .. v_n-1}).
 * The first write of a run (file number 0) starts with the header
 *
 * <pre>
 * #  History data
 * # [1]=time     [2]=dt       [3]=cycle    [4]=nbtotal  [5]=total_advected ...
 * </pre>
 *
 * and, as Parthenon does, the file is opened for appending, so a rerun in the same directory adds
 * a new header and lines after the old ones ({@link Outputs} warns once when a run starts so). Unlike the snapshot outputs, which {@link AtomicFile}
 * writes through a temporary name, a history file grows in place (copying it for every record
 * would cost time quadratic in its length); each record is appended all or nothing ({@link
 * AtomicFile#append}: a failed write, such as on a full disk, is cut back, and a file that could
 * not get its first record is removed), in one write call, so a killed run leaves whole lines.
 *
 * <p>Sums are added block by block in global block order ({@link GlobalOrderSum}), and running sums
 * ({@link HistoryOutput#runningSum}) term by term in one total carried through the blocks in that
 * order, so the file is the same on any number of ranks; minima and maxima are reduced with the
 * communicator. Only rank 0 writes.
 *
 * <p>With {@link #useThreads task threads}, the per-block functions of the partitions run on
 * them, each partition's blocks on one thread, into a table with a row per block; the sums,
 * extrema and running sums are then taken from the table on the calling thread in the same order
 * as without threads, so the record has the same bits on any number of threads.
 */
public final class HistoryFile implements OutputType {
  private static final Operation[] ORDER = {Operation.SUM, Operation.MAX, Operation.MIN};

  private final OutputParameters params;
  private final ParameterInput pin;
  private final Path file;
  private final PrintfFormat format;
  private final List<Column> columns = new ArrayList<>();
  private final int[] columnsPerOp = new int[ORDER.length];
  private final List<Column> runningSums = new ArrayList<>();
  /** The running sums' messages travel on a communicator of their own, made at the first write. */
  private Communicator foldComm;
  private int fileNumber;
  private double nextTime;
  private TaskThreadPool pool;
  /** The values the history files of the current output round have reduced. */
  private final HistoryRound round;

  /** One history output contributing its columns from value {@code first} of a record on. */
  record Column(HistoryOutput output, int first) {}

  /**
   * A history output for the packages of {@code mesh} selected by {@code params}.
   *
   * @param nextTime the time of the first regular output
   * @param fileNumber the number of records already written (0 for a new run)
   * @param directory where the file is written
   * @param round the values reduced so far in the current output round, shared by the run's
   *     history files
   */
  HistoryFile(OutputParameters params, Mesh mesh, ParameterInput pin, double nextTime,
      int fileNumber, Path directory, HistoryRound round) {
    this.params = params;
    this.round = round;
    this.pin = pin;
    this.nextTime = nextTime;
    this.fileNumber = fileNumber;
    this.file = directory.resolve(params.fileBasename() + "." + params.fileId() + ".hst");
    this.format = PrintfFormat.parse(params.dataFormat());
    List<StateDescriptor> packages = selectedPackages(mesh, pin);
    int next = 0;
    for (int op = 0; op < ORDER.length; op++) {
      int start = next;
      for (StateDescriptor pkg : packages) {
        for (boolean vectors : new boolean[] {false, true}) {
          for (HistoryOutput h : pkg.historyOutputs()) {
            if (h.operation() == ORDER[op] && (h.vector() != null) == vectors) {
              columns.add(new Column(h, next));
              if (h.running() != null) {
                runningSums.add(columns.get(columns.size() - 1));
              }
              next += h.numComponents();
            }
          }
        }
      }
      columnsPerOp[op] = next - start;
    }
  }

  private List<StateDescriptor> selectedPackages(Mesh mesh, ParameterInput pin) {
    if (params.packages().isEmpty()) {
      return mesh.packages().all();
    }
    List<StateDescriptor> selected = new ArrayList<>();
    for (String name : params.packages()) {
      if (!mesh.packages().contains(name)) {
        List<String> labels = new ArrayList<>();
        for (StateDescriptor p : mesh.packages().all()) {
          labels.add(p.label());
        }
        throw pin.error(params.blockName(), "packages", "names of packages of this run ("
            + String.join(", ", labels) + "); there is no package " + name);
      }
      selected.add(mesh.packages().get(name));
    }
    return selected;
  }

  @Override
  public OutputParameters parameters() {
    return params;
  }

  @Override
  public double nextTime() {
    return nextTime;
  }

  /**
   * Evaluates the per-block functions of different partitions on {@code pool}'s threads (null:
   * on the calling thread); the run's task threads, set for the run and cleared after it.
   */
  @Override
  public void useThreads(TaskThreadPool pool) {
    this.pool = pool;
  }

  /** The file this output appends to. */
  public Path file() {
    return file;
  }

  /**
   * Whether this output starts a run (no record written yet) on a file that already holds
   * records, which it will append to, as Parthenon does; a restart continues its file and is not
   * counted.
   */
  public boolean appendsToAnEarlierRun() {
    try {
      return fileNumber == 0 && Files.isRegularFile(file) && Files.size(file) > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** Column labels after the four fixed ones, in file order. */
  public List<String> labels() {
    List<String> labels = new ArrayList<>();
    for (Column c : columns) {
      labels.addAll(c.output().columnLabels());
    }
    return labels;
  }

  @Override
  public void write(Mesh mesh, SimTime tm, OutputSignal signal) {
    if (signal == OutputSignal.NOW) {
      return;
    }
    double[] values = values(mesh);
    requireFinite(values, tm);
    if (mesh.myRank() == 0) {
      append(render(mesh, tm, values));
    }
    fileNumber++;
    nextTime += params.dt();
    pin.setInteger(params.blockName(), "file_number", fileNumber);
    pin.setReal(params.blockName(), "next_time", nextTime);
  }

  /**
   * Stops the run at a value that is not finite instead of writing it (before: a history of inf
   * or NaN and exit code 0): a field overflowed or went NaN, which no later cycle undoes.
   *
   * @throws DriverError naming the column, the value and the cycle
   */
  private void requireFinite(double[] values, SimTime tm) {
    for (int v = 0; v < values.length; v++) {
      if (!Double.isFinite(values[v])) {
        throw new DriverError("the history of <" + params.blockName() + "> has " + values[v]
            + " in column " + (v + 5) + " at cycle " + tm.ncycle() + " (time "
            + tm.time() + "): a field overflowed or became NaN (an unstable step, or a deck"
            + " value too large?); the run is stopped");
      }
    }
  }

  /**
   * Every column's value over the whole mesh, in file order: from the round when an earlier
   * history file of the round has reduced them all (the same on every rank: all run the same
   * outputs), else reduced here and kept there.
   */
  private double[] values(Mesh mesh) {
    int total = columnsPerOp[0] + columnsPerOp[1] + columnsPerOp[2];
    double[] record = round.take(columns, total);
    if (record == null) {
      record = reduce(mesh, total);
      round.keep(columns, record);
    }
    return record;
  }

  /** Every column's value over the whole mesh, in file order, evaluated and reduced. */
  private double[] reduce(Mesh mesh, int total) {
    int nblocks = mesh.blocks().size();
    int sums = columnsPerOp[0];
    double[] blockSums = new double[Math.max(nblocks * sums, 0)];
    int[] gids = new int[nblocks];
    double[] result = new double[total];
    for (int k = sums; k < sums + columnsPerOp[1]; k++) {
      result[k] = -Double.MAX_VALUE;
    }
    for (int k = sums + columnsPerOp[1]; k < total; k++) {
      result[k] = Double.MAX_VALUE;
    }
    List<MeshData> partitions = mesh.meshData("base");
    double[] table = evaluateAll(partitions, nblocks, total);
    MeshData[] partition = new MeshData[nblocks];
    int[] inPartition = new int[nblocks];
    int lb = 0;
    for (MeshData md : partitions) {
      for (int b = 0; b < md.numBlocks(); b++, lb++) {
        gids[lb] = md.block(b).gid();
        partition[lb] = md;
        inPartition[lb] = b;
        int row = lb * total;
        System.arraycopy(table, row, blockSums, lb * sums, sums);
        for (int k = sums; k < sums + columnsPerOp[1]; k++) {
          result[k] = Math.max(result[k], table[row + k]);
        }
        for (int k = sums + columnsPerOp[1]; k < total; k++) {
          result[k] = Math.min(result[k], table[row + k]);
        }
      }
    }
    Communicator comm = mesh.communicator();
    if (sums > 0) {
      double[] summed = GlobalOrderSum.sumInGlobalBlockOrder(comm, gids, blockSums, sums);
      System.arraycopy(summed, 0, result, 0, sums);
    }
    addRunningSums(mesh, gids, partition, inPartition, result);
    if (total > sums) {
      // One reduction for both: min(x) = -max(-x) holds bit for bit (signed zeros and NaN too).
      double[] extremes = Arrays.copyOfRange(result, sums, total);
      for (int k = columnsPerOp[1]; k < extremes.length; k++) {
        extremes[k] = -extremes[k];
      }
      comm.allreduce(extremes, ReduceOp.MAX);
      for (int k = columnsPerOp[1]; k < extremes.length; k++) {
        extremes[k] = -extremes[k];
      }
      System.arraycopy(extremes, 0, result, sums, extremes.length);
    }
    return result;
  }

  /**
   * Writes the running sums into {@code result}: local block {@code lb} is block {@code
   * inPartition[lb]} of {@code partition[lb]}, with global id {@code gids[lb]}.
   */
  private void addRunningSums(Mesh mesh, int[] gids, MeshData[] partition,
      int[] inPartition, double[] result) {
    if (runningSums.isEmpty()) {
      return;
    }
    if (foldComm == null) {
      foldComm = mesh.communicator().duplicate();
    }
    BlockDistribution distribution = mesh.distribution();
    double[] totals = GlobalOrderSum.foldInGlobalBlockOrder(foldComm, gids,
        distribution::rank, distribution.totalBlocks(), runningSums.size(),
        (block, running) -> {
          for (int n = 0; n < running.length; n++) {
            running[n] = runningSums.get(n).output().running()
                .add(partition[block], inPartition[block], running[n]);
          }
        });
    for (int n = 0; n < totals.length; n++) {
      result[runningSums.get(n).first()] = totals[n];
    }
  }

  /**
   * Every column's value on every block of this rank: row {@code lb} (the rank's blocks in
   * partition order) of {@code total} values. The partitions run on the task threads when there
   * are several of both; each writes only its own rows.
   */
  private double[] evaluateAll(List<MeshData> partitions, int nblocks, int total) {
    double[] table = new double[nblocks * total];
    int[] firstRow = new int[partitions.size()];
    for (int i = 1; i < firstRow.length; i++) {
      firstRow[i] = firstRow[i - 1] + partitions.get(i - 1).numBlocks();
    }
    if (pool == null || pool.threads() < 2 || partitions.size() < 2) {
      for (int i = 0; i < partitions.size(); i++) {
        evaluate(partitions.get(i), firstRow[i], total, table);
      }
      return table;
    }
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(partitions.size());
    for (int i = 0; i < partitions.size(); i++) {
      MeshData md = partitions.get(i);
      int first = firstRow[i];
      region.get(i).addTask(TaskId.NONE, "history_values", () -> {
        evaluate(md, first, total, table);
        return TaskStatus.COMPLETE;
      });
    }
    try {
      tc.execute(pool);
    } catch (TaskFailureException e) {
      // A package's history function threw: the same exception as on the calling thread.
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
    return table;
  }

  /** The values of every block of {@code md} into the table's rows from {@code firstRow} on. */
  private void evaluate(MeshData md, int firstRow, int total, double[] table) {
    double[][] vectors = new double[columns.size()][]; // one scratch per vector column and call
    for (int b = 0; b < md.numBlocks(); b++) {
      int row = (firstRow + b) * total;
      for (int n = 0; n < columns.size(); n++) {
        Column c = columns.get(n);
        HistoryOutput h = c.output();
        if (h.running() != null) {
          table[row + c.first()] = 0.0; // added in one total across blocks afterwards
        } else if (h.scalar() != null) {
          table[row + c.first()] = h.scalar().value(md, b);
        } else {
          if (vectors[n] == null) {
            vectors[n] = new double[h.numComponents()];
          }
          Arrays.fill(vectors[n], 0.0); // each block's function starts from zeros, as before
          h.vector().values(md, b, vectors[n]);
          System.arraycopy(vectors[n], 0, table, row + c.first(), h.numComponents());
        }
      }
    }
  }

  private String render(Mesh mesh, SimTime tm, double[] values) {
    StringBuilder s = new StringBuilder();
    if (fileNumber == 0) {
      int column = 1;
      s.append("#  History data\n");
      s.append("# [").append(column++).append("]=time    ");
      s.append(" [").append(column++).append("]=dt      ");
      s.append(" [").append(column++).append("]=cycle   ");
      s.append(" [").append(column++).append("]=nbtotal ");
      for (String label : labels()) {
        s.append(String.format(" [%d]=%-8s", column++, label));
      }
      s.append('\n');
    }
    s.append(format.format(tm.time())).append(format.format(tm.dt()));
    s.append(' ').append(PrintfFormat.decimal(tm.ncycle(), 12, false));
    s.append(' ').append(PrintfFormat.decimal(mesh.totalBlocks(), 12, false));
    for (double v : values) {
      s.append(format.format(v));
    }
    return s.append('\n').toString();
  }

  private void append(String text) {
    AtomicFile.append(file, "history file", text.getBytes(StandardCharsets.UTF_8));
  }
}
