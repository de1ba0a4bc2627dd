package org.metope.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.UUID;
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
 *       the first dataset's values that can hold it (which some rank overwrites later). When it
 *       could not start the file it broadcasts that instead ({@link #decline}) and the other
 *       ranks write nothing.
 *   <li>Every other rank opens the path and reads the token back: finding it means it sees the
 *       very file, not a file of the same name on a disk of its own. A minimum over the ranks
 *       decides: all write their parts, or all stream.
 *   <li>Each rank writes its blocks' values of each dataset (a contiguous range: ranks own
 *       ascending ranges of global ids), checksumming as it goes, closes the file, and the ranks
 *       gather whether each succeeded and its parts' CRC-32C.
 *   <li>Rank 0 combines the checksums in rank order ({@link Crc32cCombine}), which its writer
 *       records in the datasets' headers ({@link Hdf5Output}); the seal, the flush to disk and
 *       the rename stay rank 0's ({@link AtomicFile}), after every rank has closed its channel.
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
  private static final int READY = 1;
  private static final int TOKEN_BYTES = Long.BYTES;
  /** File system types ({@code FileStore.type()}) whose clients' writes to one file stay apart. */
  static final Set<String> COHERENT = Set.of("lustre", "gpfs", "beegfs");
  /** This machine's running kernel: its boot id, hashed; 0 where it cannot be read. */
  private static final long MACHINE = machine();

  private final Communicator comm;
  private final int elementBytes;
  private final int chunkBytes;
  private final boolean allowed;
  private boolean visible = true;
  private boolean elsewhere;
  private boolean failPart;
  private boolean lastWritten;
  private int largestBuffer;

  /**
   * Writes over {@code comm} (null for a single rank, which never shares) of values stored in
   * {@code elementBytes} each (8, or 4 in single precision), packed in chunks of at most {@code
   * chunkBytes} of values (or one block's where a block holds more); unless {@code allowed} (the
   * deck's {@code <metope> shared_file_writes}), every output is streamed, through the same
   * protocol, as when some rank cannot open the file.
   */
  SharedFileWrite(Communicator comm, int elementBytes, int chunkBytes, boolean allowed) {
    this.comm = comm;
    this.elementBytes = elementBytes;
    this.chunkBytes = chunkBytes;
    this.allowed = allowed;
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

  /** Whether the last output's values were written by every rank into the file. */
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
   * checksums (the ranks' parts combined), else null: the values must be streamed.
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
    long[] addresses = new long[datasets.size()];
    for (int v = 0; v < addresses.length; v++) {
      addresses[v] = datasets.get(v).dataAddress();
    }
    Offer offer = new Offer(temporary.toAbsolutePath().toString(), addresses,
        ThreadLocalRandom.current().nextLong(), MACHINE, tokenHolder(datasets));
    comm.broadcast(offer.header(), 0);
    boolean ready = allowed && offer.tokenAt() >= 0
        && writeToken(channel, addresses[offer.tokenAt()], offer.token());
    comm.broadcast(offer.payload(), 0);
    if (comm.allreduce(ready ? 1L : 0L, ReduceOp.MIN) == 0) {
      return null;
    }
    Exception own = null;
    int[] checksums = new int[datasets.size()];
    try {
      writeParts(channel, addresses, distribution, variables, packer, checksums);
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
    int[] combined = combine(datasets.size(), distribution, variables, all);
    lastWritten = true;
    return combined;
  }

  /**
   * Rank 0: with every rank's report ({@code all}: per rank, success then one checksum per
   * dataset), each of the {@code count} datasets' checksums folded over the ranks in order.
   */
  private int[] combine(int count, BlockDistribution distribution,
      List<OutputVariable> variables, int[] all) throws IOException {
    int stride = count + 1;
    int[] combined = new int[count];
    for (int r = 1; r < distribution.nranks(); r++) {
      if (all[r * stride] == 0) {
        throw new IOException("rank " + r + " could not write its values into the file");
      }
    }
    for (int v = 0; v < count; v++) {
      long perBlock = (long) variables.get(v).valuesPerBlock() * elementBytes;
      int crc = all[1 + v];
      for (int r = 1; r < distribution.nranks(); r++) {
        crc = Crc32cCombine.combine(crc, all[r * stride + 1 + v],
            distribution.blockCount(r) * perBlock);
      }
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

  /**
   * Every rank but 0: its part of rank 0's {@link #offer} (or {@link #decline}); true when this
   * rank must stream its values to rank 0.
   */
  boolean join(BlockDistribution distribution, List<OutputVariable> variables,
      FieldStream.BlockPacker packer) {
    lastWritten = false;
    int[] header = new int[3];
    comm.broadcast(header, 0);
    if (header[0] != READY) {
      return false;
    }
    int[] payload = new int[Offer.payloadLength(header)];
    comm.broadcast(payload, 0);
    Offer offer = Offer.of(header, payload);
    boolean sameMachine = !elsewhere && MACHINE != 0 && offer.machine() == MACHINE;
    Path file = Path.of(offer.path());
    FileChannel channel = allowed && visible && offer.tokenAt() >= 0 && (sameMachine || coherent(file))
        ? openIfSame(file, offer.addresses()[offer.tokenAt()], offer.token()) : null;
    if (comm.allreduce(channel != null ? 1L : 0L, ReduceOp.MIN) == 0) {
      closeQuietly(channel);
      return true;
    }
    int[] checksums = new int[variables.size()];
    boolean ok = false;
    try {
      writeParts(channel, offer.addresses(), distribution, variables, packer, checksums);
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
    return false;
  }

  private int[] report(boolean ok, int[] checksums) {
    int[] report = new int[checksums.length + 1];
    report[0] = ok ? 1 : 0;
    System.arraycopy(checksums, 0, report, 1, checksums.length);
    return report;
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
    long largest = 0;
    for (OutputVariable variable : variables) {
      largest = Math.max(largest, (long) blocks * variable.valuesPerBlock() * elementBytes);
    }
    ByteBuffer buffer = DatasetFill.buffer(largest);
    for (int v = 0; v < variables.size(); v++) {
      OutputVariable variable = variables.get(v);
      int perBlock = variable.valuesPerBlock();
      int perChunk = Math.max(1, Math.min(blocks, chunkBytes / Double.BYTES / perBlock));
      double[] values = new double[perChunk * perBlock];
      largestBuffer = Math.max(largestBuffer, values.length);
      DatasetFill fill = DatasetFill.part(file, variable.label(), addresses[v],
          (long) distribution.firstGid(me) * perBlock, (long) blocks * perBlock, elementBytes,
          buffer);
      for (int first = 0; first < blocks; first += perChunk) {
        int count = Math.min(perChunk, blocks - first);
        for (int b = 0; b < count; b++) {
          packer.pack(variable, first + b, values, b * perBlock);
        }
        fill.append(values, 0, count * perBlock);
      }
      checksums[v] = fill.checksum();
    }
  }

  /** The index of the first dataset whose values can hold the token, -1 when none can. */
  private static int tokenHolder(List<FlatDataset> datasets) {
    for (int v = 0; v < datasets.size(); v++) {
      if (datasets.get(v).getSizeInBytes() >= TOKEN_BYTES) {
        return v;
      }
    }
    return -1;
  }

  private static boolean writeToken(FileChannel channel, long address, long token) {
    ByteBuffer bytes = ByteBuffer.allocate(TOKEN_BYTES).order(ByteOrder.BIG_ENDIAN);
    bytes.putLong(token).flip();
    try {
      long at = address;
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
      return COHERENT.contains(Files.getFileStore(file).type());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The running kernel's boot id, hashed to a non-zero number; 0 where there is none to read. */
  private static long machine() {
    try {
      UUID id = UUID.fromString(
          Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim());
      long hash = id.getMostSignificantBits() ^ id.getLeastSignificantBits();
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

  /**
   * What rank 0 broadcasts: the temporary file's path, where each dataset's values start, the
   * token, rank 0's machine and which dataset's values hold the token (-1: none), as a header of
   * three ints and a payload of {@link #payloadLength} ints.
   */
  private record Offer(String path, long[] addresses, long token, long machine, int tokenAt) {
    int[] header() {
      return new int[] {READY, path.length(), addresses.length};
    }

    static int payloadLength(int[] header) {
      return header[1] + 2 * header[2] + 5;
    }

    int[] payload() {
      int[] ints = new int[payloadLength(header())];
      for (int c = 0; c < path.length(); c++) {
        ints[c] = path.charAt(c);
      }
      int at = path.length();
      for (long address : addresses) {
        at = putLong(ints, at, address);
      }
      at = putLong(ints, putLong(ints, at, token), machine);
      ints[at] = tokenAt;
      return ints;
    }

    static Offer of(int[] header, int[] payload) {
      StringBuilder path = new StringBuilder();
      for (int c = 0; c < header[1]; c++) {
        path.append((char) payload[c]);
      }
      int at = header[1];
      long[] addresses = new long[header[2]];
      for (int v = 0; v < addresses.length; v++, at += 2) {
        addresses[v] = getLong(payload, at);
      }
      return new Offer(path.toString(), addresses, getLong(payload, at),
          getLong(payload, at + 2), payload[at + 4]);
    }

    private static int putLong(int[] into, int at, long value) {
      into[at] = (int) (value >>> 32);
      into[at + 1] = (int) value;
      return at + 2;
    }

    private static long getLong(int[] from, int at) {
      return ((long) from[at] << 32) | (from[at + 1] & 0xFFFFFFFFL);
    }
  }
}
