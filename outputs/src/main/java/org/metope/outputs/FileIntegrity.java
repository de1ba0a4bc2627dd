package org.metope.outputs;

import io.jhdf.HdfFile;
import io.jhdf.Superblock;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a Metope HDF5 file against its {@link FileSeal} before anything in it is trusted, and
 * says in one clause what is wrong: truncated (with the length the file should have), bytes
 * added, a damaged seal, or content that differs from its checksum, naming the dataset whose
 * values changed (every dataset carries the CRC-32C of its data) or else the HDF5 metadata.
 */
public final class FileIntegrity {
  /** More objects than a Metope file holds (a few per field); past it the structure is damaged. */
  private static final int MAX_OBJECTS = 100_000;

  private FileIntegrity() {}

  /**
   * What is wrong with {@code file}, as a clause such as {@code it is truncated: it has 425001
   * bytes, its HDF5 superblock and seal make 425134}, or null when its seal matches its content.
   *
   * @throws IOException when the file cannot be read at all
   */
  public static String problem(Path file) throws IOException {
    return problem(file, false);
  }

  /**
   * As {@link #problem(Path)}, but a file that is exactly an HDF5 file with no seal after it (as
   * Parthenon and other programs write them) passes unchecked: for readers of files that need not
   * come from Metope, such as {@code metope plot}. A file Metope sealed is still checked whole.
   */
  public static String problemIfSealed(Path file) throws IOException {
    return problem(file, true);
  }

  private static String problem(Path file, boolean unsealedPasses) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      FileSeal.Trailer seal = FileSeal.read(channel);
      if (seal == null) {
        return unsealed(channel, size, unsealedPasses);
      }
      if (!seal.selfConsistent()) {
        return "its integrity seal (the last " + FileSeal.LENGTH + " bytes) is damaged";
      }
      if (seal.version() != FileSeal.VERSION) {
        return "its integrity seal has version " + seal.version() + ", this Metope reads version "
            + FileSeal.VERSION;
      }
      long expected = seal.sealedLength() + FileSeal.LENGTH;
      if (expected != size) {
        return "its length changed: it has " + size + " bytes, its seal records " + expected;
      }
      int found = FileSeal.checksum(channel, 0, seal.sealedLength());
      if (found != seal.checksum()) {
        return "its content is damaged (CRC-32C " + FileSeal.hex(found) + ", its seal records "
            + FileSeal.hex(seal.checksum()) + "): " + locateDamage(file);
      }
      return null;
    }
  }

  /** Why a file without a seal is refused: truncated, not HDF5, unsealed or with bytes added. */
  private static String unsealed(FileChannel channel, long size, boolean unsealedPasses) {
    long hdfEnd;
    try {
      hdfEnd = Superblock.readSuperblock(channel, 0).getEndOfFileAddress();
    } catch (RuntimeException e) {
      return size == 0 ? "it is empty" : "it is not an HDF5 file written by Metope (" + size
          + " bytes, no readable HDF5 superblock at its start and no integrity seal at its end)";
    }
    long sealed = hdfEnd + FileSeal.LENGTH;
    if (size == hdfEnd) {
      return unsealedPasses ? null : "it has no integrity seal (written by another program or an older Metope, or its"
          + " last " + FileSeal.LENGTH + " bytes were cut off)";
    }
    if (size < sealed) {
      return "it is truncated: it has " + size + " bytes, its HDF5 superblock and integrity seal"
          + " make " + sealed;
    }
    if (size == sealed) {
      return "its integrity seal (the last " + FileSeal.LENGTH + " bytes) is damaged";
    }
    return "its last " + FileSeal.LENGTH + " bytes are not an integrity seal (" + (size - sealed)
        + " bytes were added after it, or it is damaged)";
  }

  /**
   * The dataset whose data no longer matches its recorded CRC-32C, or the HDF5 metadata when
   * every dataset does. The damaged structure is followed through {@link BoundedHdf} (sizes past
   * the end of the file fail instead of allocating), each object once (a link back to an
   * ancestor ends nothing) and at most {@link #MAX_OBJECTS} of them.
   */
  private static String locateDamage(Path file) {
    List<String> damaged = new ArrayList<>();
    try (HdfFile h5 = BoundedHdf.open(file)) {
      if (h5 == null) {
        return "the damaged part is not located in a file over 2 GiB";
      }
      collectDamaged(h5, damaged, new HashSet<>());
    } catch (IOException | RuntimeException | StackOverflowError e) {
      return "its HDF5 structure is unreadable";
    }
    if (damaged.isEmpty()) {
      return "the damage is in its HDF5 metadata (headers, attributes or the deck), not in a"
          + " dataset's values";
    }
    return String.join("; ", damaged);
  }

  private static void collectDamaged(Group group, List<String> damaged, Set<Long> seen) {
    for (Node node : group.getChildren().values()) {
      if (!seen.add(node.getAddress()) || seen.size() > MAX_OBJECTS) {
        throw new IllegalStateException("object at " + node.getAddress() + " seen twice");
      }
      if (node instanceof Group child) {
        collectDamaged(child, damaged, seen);
      } else if (node instanceof Dataset dataset) {
        String problem = datasetProblem(dataset);
        if (problem != null) {
          damaged.add(problem);
        }
      }
    }
  }

  private static String datasetProblem(Dataset dataset) {
    Attribute recorded = dataset.getAttribute(FlatDataset.CHECKSUM_ATTRIBUTE);
    if (!(dataset instanceof ContiguousDataset contiguous) || recorded == null
        || !(recorded.getData() instanceof Integer expected)) {
      return "dataset " + dataset.getPath() + " has no readable checksum";
    }
    int found = FileSeal.checksum(contiguous.getBuffer());
    return found == expected ? null : "dataset " + dataset.getPath() + " has CRC-32C "
        + FileSeal.hex(found) + ", it records " + FileSeal.hex(expected);
  }
}
