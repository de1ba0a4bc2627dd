package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.mesh.BlockDistribution;

/**
 * Every rank writes its own blocks' field values into the file rank 0 has laid out, at their
 * place in each dataset, when every rank can open that file (one machine, or a shared file
 * system): no value travels to rank 0, and the ranks write at once, MPI-IO's way. Where some rank
 * cannot, the values are streamed to rank 0 as before ({@link FieldStream}); the files are the
 * same byte for byte either way.
 *
 * <p>The protocol, collective over the output's communicator (every call below is matched on
 * every rank, whatever fails locally):
 *
 * <ol>
 *   <li>Rank 0, once jhdf has written the file's structure, broadcasts the temporary file's path,
 *       the address of every dataset's values and a random token, which it has just written into
 *       the largest dataset's values (which every rank overwrites later). When it could not start
 *       the file it broadcasts that instead ({@link #decline}) and the other ranks write nothing.
 *   <li>Every other rank opens the path and reads the token back: finding it means it sees the
 *       very file, not a file of the same name on a disk of its own. A minimum over the ranks
 *       decides: all write their parts, or all stream.
 *   <li>Each rank writes its blocks' values of each dataset (a contiguous range: ranks own
 *       ascending ranges of global ids), checksumming as it goes, closes the file, and the ranks
 *       gather whether each succeeded and its parts' CRC-32C.
 *   <li>Rank 0 combines the checksums in rank order ({@link Crc32cCombine}) and writes the
 *       datasets' headers with them; the seal, the flush to disk and the rename stay rank 0's
 *       ({@link AtomicFile}), after every rank has closed its channel.
 * </ol>
 *
 * <p>Where the ranks run matters as much as what they can open. Ranks on rank 0's machine (the
 * same running kernel, told by its boot id) share its page cache, so their writes to one file
 * cannot overwrite each other whatever their alignment. Ranks on other machines share the file
 * only on a parallel file system that keeps different clients' writes to one file apart
 * ({@link #COHERENT}: Lustre, GPFS, BeeGFS); on NFS, whose clients may write back whole cached
 * pages, a header rank 0 rewrites could carry a stale copy of another rank's values that share
 * its page, so there every rank streams. A rank on another machine flushes its part to the file
 * system before it reports, since rank 0's flush covers only its own machine's cache.
 */
final class SharedFileWrite {
  /** What a rank other than 0 does after the offer. */
  enum Part {
    /** Nothing: rank 0 could not start the file. */
    NONE,
    /** Its values went into the file. */
    WRITTEN,
    /** Its values must be streamed to rank 0. */
    STREAM
  }

  private static final int READY = 1;
  private static final int TOKEN_BYTES = Long.BYTES;
  /** File system types ({@code FileStore.type()}) whose clients' writes to one file stay apart. */
  static final java.util.Set<String> COHERENT = java.util.Set.of("lustre", "gpfs", "beegfs");
  /** This machine's running kernel: its boot id, hashed; 0 where it cannot be read. */
  private static final long MACHINE = machine();

  private final Communicator comm;
  private final int elementBytes;
  private final int chunkBytes;
  private boolean visible = true;
  private boolean elsewhere;
  private boolean failPart;
  private boolean lastWritten;
  private int largestBuffer;

  /**
   * Writes over {@code comm} (null for a single rank, which never shares) of values stored in
   * {@code elementBytes} each (8, or 4 in single precision), packed in chunks of at most {@code
   * chunkBytes} of values (or one block's where a block holds more).
   */
  SharedFileWrite(Communicator comm, int elementBytes, int chunkBytes) {
    this.comm = comm;
    this.elementBytes = elementBytes;
    this.chunkBytes = chunkBytes;
  }

  /** Test hook: this rank acts as one that cannot open rank 0's file. */
  void hideFile() {
    visible = false;
  }

  /** Test hook: this rank acts as one on another machine than rank 0's. */
  void actElsewhere() {
    elsewhere = true;
  }

  /** Test hook: this rank's next part fails as a full disk would fail it. */
  void failNextPart() {
    failPart = true;
  }

  /** Test hook: whether the last output's values were written by every rank into the file. */
  boolean lastWritten() {
    return lastWritten;
  }

  /** The longest array of values this rank allocated for its parts (a test hook). */
  int largestBuffer() {
    return largestBuffer;
  }

  /**
   * Rank 0, with the file's structure written to {@code temporary} (open in {@code channel}):
   * offers it to the other ranks; when every rank has written its values into it, the datasets'
   * checksums (combined, and written into their headers), else null: the values must be
   * streamed.
   *
   * @throws IOException when some rank could not write its part (after every rank has finished)
   */
  int[] offer(Path temporary, FileChannel channel, List<FlatDataset> datasets,
      BlockDistribution distribution, List<OutputVariable> variables,
      FieldStream.BlockPacker packer) throws IOException {
    lastWritten = false;
    if (comm == null) {
      return null;
    }
    boolean ready = announce(temporary, channel, datasets);
    if (comm.allreduce(ready ? 1L : 0L, ReduceOp.MIN) == 0) {
      return null;
    }
    Exception own = null;
    int[] checksums = new int[datasets.size()];
    try {
      writeParts(channel, datasets, distribution, variables, packer, checksums);
    } catch (IOException | RuntimeException e) {
      own = e; // thrown once every rank has reported, so that no rank waits for this one
    }
    int[] all = comm.allgather(report(own == null, checksums));
    if (own instanceof IOException io) {
      throw io;
    }
    if (own != null) {
      throw (RuntimeException) own;
    }
    int[] combined = completeHeaders(channel, datasets, distribution, variables, all);
    lastWritten = true;
    return combined;
  }

  /**
   * Rank 0: writes the token into the largest dataset's values and broadcasts the file's path,
   * the datasets' value addresses and the token; false when no dataset can hold the token or it
   * could not be written (the values are then streamed).
   */
  private boolean announce(Path temporary, FileChannel channel, List<FlatDataset> datasets) {
    int tokenAt = largest(datasets);
    long token = ThreadLocalRandom.current().nextLong();
    String path = temporary.toAbsolutePath().toString();
    comm.broadcast(new int[] {READY, path.length(), datasets.size()}, 0);
    int[] payload = new int[path.length() + 2 * datasets.size() + 5];
    for (int c = 0; c < path.length(); c++) {
      payload[c] = path.charAt(c);
    }
    for (int v = 0; v < datasets.size(); v++) {
      putLong(payload, path.length() + 2 * v, datasets.get(v).dataAddress());
    }
    putLong(payload, payload.length - 5, token);
    putLong(payload, payload.length - 3, MACHINE);
    payload[payload.length - 1] = tokenAt;
    boolean ready = tokenAt >= 0 && writeToken(channel, datasets.get(tokenAt), token);
    comm.broadcast(payload, 0);
    return ready;
  }

  /**
   * Rank 0: with every rank's report ({@code all}: per rank, success then one checksum per
   * dataset), each dataset's checksum folded over the ranks in order, written into its header;
   * the checksums.
   */
  private int[] completeHeaders(FileChannel channel, List<FlatDataset> datasets,
      BlockDistribution distribution, List<OutputVariable> variables, int[] all)
      throws IOException {
    int stride = datasets.size() + 1;
    int[] combined = new int[datasets.size()];
    for (int r = 1; r < distribution.nranks(); r++) {
      if (all[r * stride] == 0) {
        throw new IOException("rank " + r + " could not write its values into the file");
      }
    }
    for (int v = 0; v < datasets.size(); v++) {
      long perBlock = (long) variables.get(v).valuesPerBlock() * elementBytes;
      int crc = all[1 + v];
      for (int r = 1; r < distribution.nranks(); r++) {
        crc = Crc32cCombine.combine(crc, all[r * stride + 1 + v],
            distribution.blockCount(r) * perBlock);
      }
      datasets.get(v).completeHeader(channel, crc);
      combined[v] = crc;
    }
    return combined;
  }

  /** Rank 0, when it could not start the file: the other ranks learn it and write nothing. */
  void decline() {
    if (comm != null) {
      comm.broadcast(new int[] {0, 0, 0}, 0);
    }
  }

  /** Every rank but 0: its part of rank 0's {@link #offer} (or {@link #decline}). */
  Part join(BlockDistribution distribution, List<OutputVariable> variables,
      FieldStream.BlockPacker packer) {
    lastWritten = false;
    int[] header = new int[3];
    comm.broadcast(header, 0);
    if (header[0] != READY) {
      return Part.NONE;
    }
    int[] payload = new int[header[1] + 2 * header[2] + 5];
    comm.broadcast(payload, 0);
    StringBuilder path = new StringBuilder();
    for (int c = 0; c < header[1]; c++) {
      path.append((char) payload[c]);
    }
    long[] addresses = new long[header[2]];
    for (int v = 0; v < addresses.length; v++) {
      addresses[v] = getLong(payload, header[1] + 2 * v);
    }
    long token = getLong(payload, payload.length - 5);
    boolean sameMachine = !elsewhere && MACHINE != 0
        && getLong(payload, payload.length - 3) == MACHINE;
    int tokenAt = payload[payload.length - 1];
    Path file = Path.of(path.toString());
    FileChannel channel = visible && tokenAt >= 0 && (sameMachine || coherent(file))
        ? openIfSame(file, addresses[tokenAt], token) : null;
    if (comm.allreduce(channel != null ? 1L : 0L, ReduceOp.MIN) == 0) {
      closeQuietly(channel);
      return Part.STREAM;
    }
    int[] checksums = new int[variables.size()];
    boolean ok = false;
    try {
      writeParts(channel, addresses, distribution, variables, packer, checksums);
      if (!sameMachine) {
        channel.force(false); // rank 0's flush reaches only its own machine's cache
      }
      ok = true;
    } catch (IOException | RuntimeException e) {
      // Reported to rank 0 below as a part that failed; its line names this rank.
    } finally {
      ok = closeQuietly(channel) && ok; // closed before the gather: other hosts see the bytes
    }
    comm.allgather(report(ok, checksums));
    lastWritten = ok;
    return Part.WRITTEN;
  }

  private int[] report(boolean ok, int[] checksums) {
    int[] report = new int[checksums.length + 1];
    report[0] = ok ? 1 : 0;
    System.arraycopy(checksums, 0, report, 1, checksums.length);
    return report;
  }

  private void writeParts(FileChannel file, List<FlatDataset> datasets,
      BlockDistribution distribution, List<OutputVariable> variables,
      FieldStream.BlockPacker packer, int[] checksums) throws IOException {
    long[] addresses = new long[datasets.size()];
    for (int v = 0; v < addresses.length; v++) {
      addresses[v] = datasets.get(v).dataAddress();
    }
    writeParts(file, addresses, distribution, variables, packer, checksums);
  }

  /**
   * This rank's blocks of every variable into its datasets (values at {@code addresses}), in
   * chunks of at most {@code chunkBytes} of values (at least one block); {@code checksums} gets
   * each part's.
   */
  private void writeParts(FileChannel file, long[] addresses, BlockDistribution distribution,
      List<OutputVariable> variables, FieldStream.BlockPacker packer, int[] checksums)
      throws IOException {
    if (failPart) {
      failPart = false;
      throw new IOException("No space left on device (a test's)");
    }
    int me = comm.rank();
    int blocks = distribution.blockCount(me);
    for (int v = 0; v < variables.size(); v++) {
      OutputVariable variable = variables.get(v);
      int perBlock = variable.valuesPerBlock();
      int perChunk = Math.max(1, Math.min(blocks, chunkBytes / Double.BYTES / perBlock));
      double[] values = new double[perChunk * perBlock];
      largestBuffer = Math.max(largestBuffer, values.length);
      DatasetFill fill = DatasetFill.part(file, variable.label(), addresses[v],
          (long) distribution.firstGid(me) * perBlock, (long) blocks * perBlock, elementBytes);
      for (int first = 0; first < blocks; first += perChunk) {
        int count = Math.min(perChunk, blocks - first);
        for (int b = 0; b < count; b++) {
          packer.pack(variable, first + b, values, b * perBlock);
        }
        fill.append(values, 0, count * perBlock);
      }
      checksums[v] = fill.partChecksum();
    }
  }

  /** The index of the dataset with the most bytes, -1 when none holds a token's 8 bytes. */
  private static int largest(List<FlatDataset> datasets) {
    int best = -1;
    for (int v = 0; v < datasets.size(); v++) {
      long bytes = datasets.get(v).getSizeInBytes();
      if (bytes >= TOKEN_BYTES && (best < 0 || bytes > datasets.get(best).getSizeInBytes())) {
        best = v;
      }
    }
    return best;
  }

  private static boolean writeToken(FileChannel channel, FlatDataset dataset, long token) {
    ByteBuffer bytes = ByteBuffer.allocate(TOKEN_BYTES).order(ByteOrder.BIG_ENDIAN);
    bytes.putLong(token).flip();
    try {
      long at = dataset.dataAddress();
      while (bytes.hasRemaining()) {
        at += channel.write(bytes, at);
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether {@code file}'s file system keeps different machines' writes to it apart. */
  private static boolean coherent(Path file) {
    try {
      return COHERENT.contains(java.nio.file.Files.getFileStore(file).type());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The running kernel's boot id, hashed to a non-zero number; 0 where there is none to read. */
  private static long machine() {
    try {
      String id = java.nio.file.Files.readString(Path.of("/proc/sys/kernel/random/boot_id"))
          .trim();
      long hash = java.util.UUID.fromString(id).getMostSignificantBits()
          ^ java.util.UUID.fromString(id).getLeastSignificantBits();
      return hash == 0 ? 1 : hash;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** {@code path} open for writing if it holds {@code token} at {@code at}, else null. */
  static FileChannel openIfSame(Path path, long at, long token) {
    FileChannel channel = null;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      ByteBuffer bytes = ByteBuffer.allocate(TOKEN_BYTES).order(ByteOrder.BIG_ENDIAN);
      while (bytes.hasRemaining()) {
        if (channel.read(bytes, at + bytes.position()) < 0) {
          break;
        }
      }
      if (!bytes.hasRemaining() && bytes.getLong(0) == token) {
        FileChannel same = channel;
        channel = null;
        return same;
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return null;
    } finally {
      closeQuietly(channel);
    }
  }

  /** Closes {@code channel} if there is one; false when closing failed. */
  private static boolean closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private static void putLong(int[] into, int at, long value) {
    into[at] = (int) (value >>> 32);
    into[at + 1] = (int) value;
  }

  private static long getLong(int[] from, int at) {
    return ((long) from[at] << 32) | (from[at + 1] & 0xFFFFFFFFL);
  }
}
