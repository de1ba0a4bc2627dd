package org.metope.outputs;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshRefinement;
import org.metope.mesh.DriverError;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.input.ParameterInput;

/**
 * The HDF5 outputs ({@code file_type = hdf5}, Parthenon's {@code PHDF5Output}) and restart files
 * ({@code file_type = rst}): one file per output in Parthenon's layout ({@link PhdfWriter}) with
 * its {@code .xdmf} companion ({@link XdmfWriter}; with {@code write_swarm_xdmf}, also {@code
 * .swarm.xdmf}, {@link SwarmXdmfWriter}), named
 *
 * <pre>
 * &lt;problem_id&gt;.&lt;id&gt;.&lt;NNNNN&gt;.phdf      regular outputs, NNNNN = file_number
 * &lt;problem_id&gt;.&lt;id&gt;.final.phdf        at the end of the run (use_final_label = true)
 * &lt;problem_id&gt;.&lt;id&gt;.now.phdf          on request
 * </pre>
 *
 * and {@code .rhdf} for restarts, which hold every {@code INDEPENDENT} or {@code RESTART} field
 * and swarm with the effective deck, so that {@link RestartFile} can resume the run. Swarms
 * ({@link OutputSwarms}: an output block's {@code swarms}, {@code swarm_variables}) are
 * defragmented and their particles gathered whole on rank 0 before the file is written.
 *
 * <p>A regular output advances its counters before it writes, as Parthenon does, so that the
 * deck stored in a restart file already points past it: {@code file_number} by one, {@code
 * next_time} by {@code dt} when the output has a time cadence, {@code next_n} by {@code dn} when
 * it has a cycle cadence. Final and requested outputs change no counter.
 *
 * <p>Rank 0 writes the file through a temporary name ({@link AtomicFile}): first everything but the
 * fields' values ({@link PhdfWriter}); then, where every rank can open that file, each rank writes
 * its own blocks' values into it ({@link SharedFileWrite}), and otherwise rank 0 writes each
 * field's values in gid order as they come, its own blocks packed straight from its storage and
 * the other ranks' in messages of bounded size ({@link FieldStream}). No rank holds a whole field;
 * per-block numbers (sparse allocation, counters) are gathered whole ({@link BlockGather}). A
 * failure on any rank is reported on every rank as the same {@link DriverError}. The file's
 * content does not depend on the number of ranks except for {@code WallTime}, {@code BlocksPerPE}
 * and the local ids in {@code Blocks/loc.level-gid-lid-cnghost-gflag}, nor on the size of the
 * messages, nor on which ranks wrote the values.
 */
public final class Hdf5Output implements OutputType {
  /**
   * The JVM's uptime, the files' {@code WallTime}: looked up once, since each lookup walks the
   * platform's bean providers.
   */
  private static final RuntimeMXBean RUNTIME = ManagementFactory.getRuntimeMXBean();
  private final OutputParameters params;
  private final Hdf5Settings settings;
  private final ParameterInput pin;
  private final Path directory;
  private final List<OutputVariable> variables;
  private final List<String> warnings = new java.util.ArrayList<>();
  private final IndexShape cells;
  private final BlockGather gather;
  private final OutputSwarms swarms;
  private FieldStream stream;
  private SharedFileWrite shared;
  private double nextTime;
  private int nextCycle;
  private int fileNumber;
  /** Where rank 0's files are flushed and renamed into place; null: by each write itself. */
  private RenameQueue renames;
  /** Rank 0: files this output has written, and those every rank wrote its values into. */
  private int filesWritten;
  private int filesWrittenInPlace;

  /**
   * An output of {@code mesh} as {@code params} and {@code settings} describe it.
   *
   * @param nextTime time of the next regular output (deck key {@code next_time})
   * @param nextCycle cycle of the next regular output (deck key {@code next_n})
   * @param fileNumber number of the next regular file (deck key {@code file_number})
   * @throws org.metope.mesh.input.InputError when a {@code variables} entry is not a pattern
   */
  public Hdf5Output(OutputParameters params, Hdf5Settings settings, Mesh mesh, ParameterInput pin,
      double nextTime, int nextCycle, int fileNumber, Path directory) {
    this.params = params;
    this.settings = settings;
    this.pin = pin;
    this.directory = directory;
    this.nextTime = nextTime;
    this.nextCycle = nextCycle;
    this.fileNumber = fileNumber;
    this.cells = PhdfWriter.blockShape(mesh);
    try {
      this.variables = settings.restart()
          ? OutputVariable.selectForRestart(mesh.resolvedPackages(), cells, settings.ghostZones())
          : OutputVariable.selectByName(mesh.resolvedPackages(), settings.variables(), cells,
              settings.ghostZones());
    } catch (IllegalArgumentException e) {
      throw pin.error(params.blockName(), "variables", "field names or regular expressions ("
          + e.getMessage() + ")");
    }
    List<String> unmatched = settings.restart() ? List.of()
        : OutputVariable.unmatched(mesh.resolvedPackages(), settings.variables());
    String fields = OutputVariable.fieldNames(mesh.resolvedPackages());
    if (!unmatched.isEmpty() && unmatched.size() == settings.variables().size()) {
      // Parthenon writes such a file too (its fine_advection deck names fields it lacks).
      warnings.add("<" + params.blockName() + "> variables: none of " + String.join(", ",
          unmatched) + " matches a field of this run (" + fields + "); its files hold the mesh"
          + " only");
    } else {
      for (String v : unmatched) {
        warnings.add("<" + params.blockName() + "> variables: " + v + " matches no field of this"
            + " run (" + fields + "); it is not written");
      }
    }
    this.swarms = settings.restart() ? OutputSwarms.forRestart(mesh.swarms())
        : OutputSwarms.fromInput(pin, params.blockName(), mesh.swarms());
    this.gather = new BlockGather(mesh.communicator());
    this.stream = new FieldStream(gather.communicator(), FieldStream.MESSAGE_BYTES);
    this.shared = sharedWrite(FieldStream.MESSAGE_BYTES);
  }

  /** Later files are flushed and renamed into place by {@code queue} (null: by each write). */
  void renameWith(RenameQueue queue) {
    this.renames = queue;
  }

  /**
   * Waits until every file queued for renaming is in place; a failure there is every rank's
   * {@link DriverError}, as a failed write is. Collective.
   */
  void awaitRenames() {
    String error = null;
    if (renames != null && gather.rank() == 0) {
      try {
        renames.await();
      } catch (DriverError e) {
        error = e.getMessage();
      }
    }
    error = gather.shareOutcome(error);
    if (error != null) {
      throw new DriverError(error);
    }
  }

  private SharedFileWrite sharedWrite(int chunkBytes) {
    return new SharedFileWrite(gather.communicator(),
        settings.singlePrecision() ? Float.BYTES : Double.BYTES, chunkBytes,
        settings.sharedFileWrites());
  }

  /**
   * Test hook: later writes move field values in messages of at most {@code bytes}, and pack a
   * rank's own values in chunks of that size.
   */
  void limitMessages(int bytes) {
    stream = new FieldStream(gather.communicator(), bytes);
    shared = sharedWrite(bytes);
  }

  /** Test hook: the longest array of field values this rank has allocated for its writes. */
  int largestValueBuffer() {
    return Math.max(stream.largestBuffer(), shared.largestBuffer());
  }

  /** Test hook: this rank acts as one that cannot open rank 0's file, so values are streamed. */
  void hideFileFromThisRank() {
    shared.hideFile();
  }

  /** Test hook: this rank acts as one on another machine than rank 0's. */
  void actOnAnotherMachine() {
    shared.actElsewhere();
  }

  /** Test hook: this rank's next part of an output fails as on a full disk. */
  void failNextPartOnThisRank() {
    shared.failNextPart();
  }

  /** Test hook: whether this rank wrote its values of the last output into the file itself. */
  boolean lastWrittenInPlace() {
    return shared.lastWritten();
  }

  /** Rank 0: the files this output has written so far (0 on other ranks). */
  public int filesWritten() {
    return filesWritten;
  }

  /**
   * Rank 0: of {@link #filesWritten}, those whose values every rank wrote into the file itself,
   * through a file system all ranks share ({@link SharedFileWrite}); the others were streamed.
   */
  public int filesWrittenInPlace() {
    return filesWrittenInPlace;
  }

  /** Warnings about the output block, e.g. a {@code variables} entry that matches no field. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  @Override
  public OutputParameters parameters() {
    return params;
  }

  @Override
  public double nextTime() {
    return nextTime;
  }

  @Override
  public boolean dueByCycle(int ncycle) {
    return params.dn() > 0 && ncycle >= nextCycle;
  }

  /** The settings of this output. */
  public Hdf5Settings settings() {
    return settings;
  }

  /** The name the next file written with {@code signal} gets. */
  public String fileName(OutputSignal signal) {
    String label;
    if (signal == OutputSignal.NOW) {
      label = "now";
    } else if (signal == OutputSignal.FINAL && settings.useFinalLabel()) {
      label = "final";
    } else {
      label = PrintfFormat.decimal(fileNumber, settings.fileNumberWidth(), true);
    }
    return params.fileBasename() + "." + params.fileId() + "." + label + settings.extension();
  }

  @Override
  public void write(Mesh mesh, SimTime tm, OutputSignal signal) {
    Path file = directory.resolve(fileName(signal));
    if (signal == OutputSignal.NONE) {
      advanceCounters();
    }
    List<OutputVariable> sparse = sparseVariables();
    double[] allocated = gather.toRoot(mesh.distribution(), allocationFlags(mesh, sparse),
        sparse.size());
    double[] deallocCounts = gather.toRoot(mesh.distribution(),
        deallocationCounts(mesh, sparse), sparse.size());
    double[] derefineCounts = gather.toRoot(mesh.distribution(), derefinementCounts(mesh), 1);
    List<OutputSwarms.Gathered> particles = swarms.gather(mesh, gather.communicator());
    String error = null;
    FieldStream.BlockPacker packer = packer(mesh);
    if (gather.rank() != 0) {
      if (shared.join(mesh.distribution(), variables, packer)) {
        stream.send(mesh.distribution(), variables, packer);
      }
    } else {
      PhdfWriter.Content content = content(mesh, tm, sparse, allocated, deallocCounts,
          derefineCounts, particles);
      try {
        writeFiles(file, content, packer);
      } catch (DriverError e) {
        error = e.getMessage();
      }
    }
    error = gather.shareOutcome(error);
    if (error != null) {
      throw new DriverError(error);
    }
  }

  private void advanceCounters() {
    fileNumber++;
    pin.setInteger(params.blockName(), "file_number", fileNumber);
    if (params.dt() > 0.0) {
      nextTime += params.dt();
      pin.setReal(params.blockName(), "next_time", nextTime);
    }
    if (params.dn() > 0) {
      nextCycle += params.dn();
      pin.setInteger(params.blockName(), "next_n", nextCycle);
    }
  }

  /** Packs a variable's values on one of this rank's blocks, from the first (base) container. */
  private FieldStream.BlockPacker packer(Mesh mesh) {
    FieldStorage storage = mesh.fields();
    double fill = settings.sparseSeedNans() ? Double.NaN : 0.0;
    boolean ghosts = settings.ghostZones();
    return (v, lid, into, at) -> v.pack(storage, 0, lid, cells, ghosts, into, at, fill);
  }

  private List<OutputVariable> sparseVariables() {
    List<OutputVariable> sparse = new ArrayList<>();
    for (OutputVariable v : variables) {
      if (v.field().isSparse()) {
        sparse.add(v);
      }
    }
    return sparse;
  }

  private static double[] allocationFlags(Mesh mesh, List<OutputVariable> sparse) {
    int nb = mesh.blocks().size();
    double[] flags = new double[nb * sparse.size()];
    for (int b = 0; b < nb; b++) {
      for (int s = 0; s < sparse.size(); s++) {
        flags[b * sparse.size() + s] =
            mesh.fields().isAllocated(sparse.get(s).field().id(), b) ? 1.0 : 0.0;
      }
    }
    return flags;
  }

  private PhdfWriter.Content content(Mesh mesh, SimTime tm, List<OutputVariable> sparse,
      double[] allocated, double[] deallocCounts, double[] derefineCounts,
      List<OutputSwarms.Gathered> particles) {
    byte[] flags = new byte[allocated.length];
    for (int n = 0; n < flags.length; n++) {
      flags[n] = (byte) (allocated[n] != 0.0 ? 1 : 0);
    }
    List<String> sparseNames = new ArrayList<>();
    for (OutputVariable v : sparse) {
      sparseNames.add(v.label());
    }
    double wallTime = RUNTIME.getUptime() / 1000.0;
    MeshRefinement.Statistics amr = mesh.refinement() == null ? null
        : mesh.refinement().statistics();
    return new PhdfWriter.Content(pin.effectiveDeck(), tm.ncycle(), tm.time(), tm.dt(), wallTime,
        mesh, settings.ghostZones(), settings.singlePrecision(), variables, sparseNames, flags,
        toInts(deallocCounts), toInts(derefineCounts), amr == null ? 0 : amr.created(),
        amr == null ? 0 : amr.destroyed(), tm.isTimeLoop(), particles,
        settings.writeSwarmXdmf());
  }

  /**
   * Rank 0: the file and its XDMF companion. Once the structure is written, every rank writes its
   * own values into the file where all can open it ({@link SharedFileWrite}), else they are
   * streamed here; when the file could not be started, the other ranks learn that and send
   * nothing.
   */
  private void writeFiles(Path file, PhdfWriter.Content content, FieldStream.BlockPacker packer) {
    Mesh mesh = content.mesh();
    boolean[] offered = {false};
    try {
      AtomicFile.write(file, settings.restart() ? "restart file" : "output file", temporary -> {
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
          PhdfWriter.Layout layout = PhdfWriter.write(temporary, channel, content);
          List<FlatDataset> datasets = layout.reserved();
          offered[0] = true;
          int[] checksums = shared.offer(temporary, channel, datasets, mesh.distribution(), variables,
              packer);
          if (checksums == null) {
            checksums = fillValues(mesh, datasets, channel, packer);
          }
          for (int v = 0; v < datasets.size(); v++) {
            datasets.get(v).completeHeader(channel, checksums[v]);
          }
          FileSeal.append(channel, known(layout, checksums));
        }
      }, renames);
    } finally {
      if (!offered[0]) {
        shared.decline();
      }
    }
    filesWritten++;
    if (shared.lastWritten()) {
      filesWrittenInPlace++;
    }
    if (settings.writeXdmf()) {
      IndexDomain domain = settings.ghostZones() ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
      int[] n = {cells.ncellsI(domain), cells.ncellsJ(domain), cells.ncellsK(domain)};
      byte[] xdmf = XdmfWriter.render(file.getFileName().toString(), content.ncycle(),
          content.time(), mesh.totalBlocks(), n, variables, settings.singlePrecision());
      AtomicFile.writeBytes(file.resolveSibling(file.getFileName() + ".xdmf"), "XDMF file",
          xdmf, renames);
    }
    if (settings.writeSwarmXdmf() && !content.swarms().isEmpty()) {
      AtomicFile.writeString(file.resolveSibling(file.getFileName() + ".swarm.xdmf"),
          "swarm XDMF file", SwarmXdmfWriter.render(file.getFileName().toString(),
              content.ncycle(), content.time(), content.swarms()), renames);
    }
  }

  /**
   * The file's structure and the datasets' values as known bytes of the file for its seal, in the
   * order of the file: together, every byte of it.
   */
  private static List<FileSeal.Known> known(PhdfWriter.Layout layout, int[] checksums) {
    List<FlatDataset> datasets = layout.reserved();
    List<FileSeal.Known> known = new ArrayList<>(layout.file().structure());
    for (int v = 0; v < datasets.size(); v++) {
      FlatDataset dataset = datasets.get(v);
      known.add(new FileSeal.Known(dataset.dataAddress(), dataset.getSizeInBytes(),
          checksums[v]));
    }
    known.sort(Comparator.comparingLong(FileSeal.Known::start));
    return known;
  }

  /**
   * Streams every variable's values into its reserved dataset, in gid order; the datasets'
   * checksums.
   */
  private int[] fillValues(Mesh mesh, List<FlatDataset> datasets, FileChannel channel,
      FieldStream.BlockPacker packer) throws IOException {
    DatasetFill[] fills = new DatasetFill[datasets.size()];
    long largest = 0;
    for (FlatDataset dataset : datasets) {
      largest = Math.max(largest, dataset.getSizeInBytes());
    }
    ByteBuffer buffer = DatasetFill.buffer(largest);
    for (int v = 0; v < fills.length; v++) {
      fills[v] = datasets.get(v).fill(channel, buffer);
    }
    stream.receive(mesh.distribution(), variables, packer,
        (v, values, length) -> fills[v].append(values, 0, length));
    int[] checksums = new int[fills.length];
    for (int v = 0; v < fills.length; v++) {
      checksums[v] = fills[v].checksum();
    }
    return checksums;
  }

  /**
   * This rank's blocks' derefinement counters, in local order: those of the mesh's adaptive
   * refinement, or 0 for every block without one (as a mesh without adaptive refinement has in
   * Parthenon).
   */
  static double[] derefinementCounts(Mesh mesh) {
    double[] counts = new double[mesh.blocks().size()];
    if (mesh.refinement() != null) {
      for (int lid = 0; lid < counts.length; lid++) {
        counts[lid] = mesh.refinement().derefineCount(lid);
      }
    }
    return counts;
  }

  /** This rank's sparse deallocation counters, block by block, {@code sparse} in order. */
  private static double[] deallocationCounts(Mesh mesh, List<OutputVariable> sparse) {
    double[] counts = new double[mesh.blocks().size() * sparse.size()];
    for (int lid = 0; lid < mesh.blocks().size(); lid++) {
      for (int v = 0; v < sparse.size(); v++) {
        counts[lid * sparse.size() + v] =
            mesh.fields().deallocationCount(sparse.get(v).field().id(), lid);
      }
    }
    return counts;
  }

  private static int[] toInts(double[] values) {
    int[] out = new int[values.length];
    for (int n = 0; n < values.length; n++) {
      out[n] = (int) values[n];
    }
    return out;
  }
}
