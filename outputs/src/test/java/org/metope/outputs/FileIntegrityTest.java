package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;

/**
 * Every way a sealed HDF5 file can be damaged is found, and said in one clause: truncation by any
 * length, appended bytes, and a flipped bit at every byte position of a whole output file.
 */
class FileIntegrityTest {
  @TempDir Path dir;

  private Path writeOutput() {
    InProcessRun.run(1, comm -> {
      ParameterInput pin = OutputMeshes.pin(
          "<parthenon/output1>\nfile_type = hdf5\ndt = 1\nvariables = q, v\n");
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      OutputMeshes.fill(mesh);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.FINAL, () -> { });
    });
    return dir.resolve("om.out1.final.phdf");
  }

  @Test
  void givenAFileAsWritten_thenItPassesAndEveryDatasetRecordsItsChecksum() throws Exception {
    Path file = writeOutput();
    assertNull(FileIntegrity.problem(file));
    try (HdfFile h5 = new HdfFile(file)) {
      Dataset c = h5.getDatasetByPath("q");
      assertNotNull(c.getAttribute(FlatDataset.CHECKSUM_ATTRIBUTE), "checksum attribute of q");
    }
  }

  @Test
  void givenATruncatedFile_thenItIsTruncatedWithBothLengths() throws Exception {
    Path file = writeOutput();
    byte[] bytes = Files.readAllBytes(file);
    for (int cut : new int[] {1, 31, 33, 1000, bytes.length / 2}) {
      Path cutFile = Files.write(dir.resolve("cut.phdf"), Arrays.copyOf(bytes, bytes.length - cut));
      String problem = FileIntegrity.problem(cutFile);
      assertEquals("it is truncated: it has " + (bytes.length - cut) + " bytes, its HDF5 "
          + "superblock and integrity seal make " + bytes.length, problem, "cut " + cut);
    }
    Path unsealed = Files.write(dir.resolve("unsealed.phdf"),
        Arrays.copyOf(bytes, bytes.length - FileSeal.LENGTH));
    assertEquals("it has no integrity seal (written by another program or an older Metope, or its"
        + " last 32 bytes were cut off)", FileIntegrity.problem(unsealed));
    Path empty = Files.write(dir.resolve("empty.phdf"), new byte[0]);
    assertEquals("it is empty", FileIntegrity.problem(empty));
  }

  @Test
  void givenAppendedBytes_thenTheSealIsNotFound() throws Exception {
    Path file = writeOutput();
    byte[] bytes = Files.readAllBytes(file);
    Path longer = Files.write(dir.resolve("longer.phdf"), Arrays.copyOf(bytes, bytes.length + 7));
    assertEquals("its last 32 bytes are not an integrity seal (7 bytes were added after it, or"
        + " it is damaged)", FileIntegrity.problem(longer));
  }

  @Test
  void givenAChangedValue_thenTheDatasetHoldingItIsNamed() throws Exception {
    Path file = writeOutput();
    long address;
    try (HdfFile h5 = new HdfFile(file)) {
      address = ((io.jhdf.api.dataset.ContiguousDataset) h5.getDatasetByPath("v"))
          .getDataAddress();
    }
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) address + 3] ^= 0x10;
    Path flipped = Files.write(dir.resolve("flipped.phdf"), bytes);
    String problem = FileIntegrity.problem(flipped);
    assertTrue(problem.matches("its content is damaged \\(CRC-32C [0-9a-f]{8}, its seal records"
        + " [0-9a-f]{8}\\): dataset /v has CRC-32C [0-9a-f]{8}, it records [0-9a-f]{8}"), problem);
  }

  /**
   * Single bits flipped at 200 seeded positions of the file and at every bit of its seal: every
   * flip is found, and each answer is one line. (CRC-32C detects every single-bit error of the
   * content, and the seal checks its own fields, so no position can escape.)
   */
  @Test
  void givenABitFlippedAnywhere_thenTheFileIsRefused() throws Exception {
    Path file = writeOutput();
    byte[] bytes = Files.readAllBytes(file);
    Path flipped = dir.resolve("flip.phdf");
    Random random = new Random(18);
    List<Integer> bits = new ArrayList<>();
    for (int n = 0; n < 200; n++) {
      bits.add(random.nextInt(8 * (bytes.length - FileSeal.LENGTH)));
    }
    for (int bit = 8 * (bytes.length - FileSeal.LENGTH); bit < 8 * bytes.length; bit++) {
      bits.add(bit);
    }
    int inContent = 0;
    for (int bit : bits) {
      int at = bit / 8;
      byte[] copy = bytes.clone();
      copy[at] ^= (byte) (1 << (bit % 8));
      Files.write(flipped, copy);
      String problem = FileIntegrity.problem(flipped);
      if (problem == null) {
        fail("bit " + bit % 8 + " of byte " + at + " of " + bytes.length + " flipped unnoticed");
      }
      assertEquals(1, problem.lines().count(), problem);
      if (problem.startsWith("its content is damaged")) {
        inContent++;
      }
    }
    assertEquals(200, inContent, "every flip before the seal is reported as damaged content");
  }
}
