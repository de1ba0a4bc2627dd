package org.metope.test.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.outputs.PauseBeforeRename;
import org.metope.comm.ProgressDeadline;

/**
 * Kills a real run (a child JVM) with SIGKILL while it writes an HDF5 output, then checks what a
 * user finds: every file under a final name is complete and readable, the output being written at
 * the kill has no file under its final name (only a stray temporary file), and the earlier
 * outputs are intact.
 */
class OutputKillTest {
  @TempDir Path dir;

  /** 96^3 cells in 27 blocks, three fields with ghosts: about 30 MB per output, one per cycle. */
  private static final String DECK = String.join("\n",
      "<parthenon/job>", "problem_id = big",
      "<parthenon/mesh>", "nx1 = 96", "x1min = -0.5", "x1max = 0.5", "ix1_bc = periodic",
      "ox1_bc = periodic", "nx2 = 96", "x2min = -0.5", "x2max = 0.5", "ix2_bc = periodic",
      "ox2_bc = periodic", "nx3 = 96", "x3min = -0.5", "x3max = 0.5", "ix3_bc = periodic",
      "ox3_bc = periodic",
      "<parthenon/meshblock>", "nx1 = 32", "nx2 = 32", "nx3 = 32",
      "<parthenon/time>", "nlim = 30", "tlim = 1.0", "integrator = rk1",
      "<Advection>", "profile = hard_sphere", "fill_derived = false", "num_vars = 3",
      "<parthenon/output1>", "file_type = hdf5", "dn = 1", "variables = advected",
      "ghost_zones = true", "");

  @Test
  void givenAKillDuringAnOutput_thenNoPartialFileHasAFinalNameAndEarlierFilesAreIntact()
      throws Exception {
    Path deck = Files.writeString(dir.resolve("big.in"), DECK);
    Path out = Files.createDirectory(dir.resolve("run"));
    Path inFlight = killDuringAnOutput(deck, out);
    String finalName = inFlight.getFileName().toString().replaceAll("\\.tmp-\\d+-\\d+$", "");
    assertEquals("big.out1.00002.phdf", finalName);
    assertFalse(Files.exists(out.resolve(finalName)),
        "the output being written at the kill has no file under its final name");
    List<Path> complete = files(out, ".phdf");
    assertEquals(2, complete.size(), "the outputs of cycles 0 and 1 exist: " + complete);
    for (Path file : complete) {
      assertComplete(file);
    }
    for (Path xdmf : files(out, ".xdmf")) {
      assertTrue(Files.readString(xdmf).endsWith("</Xdmf>\n"), xdmf.toString());
    }
  }

  /**
   * Starts the run with the writer told to pause before renaming output 2 into place
   * ({@link PausingMetope}), waits for it to say so, kills the run with SIGKILL there, and returns
   * the temporary file it was writing.
   */
  private static Path killDuringAnOutput(Path deck, Path out) throws Exception {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-cp", System.getProperty("java.class.path"), PausingMetope.class.getName(),
        "big\\.out1\\.00002\\.phdf", "-i", deck.toString(), "-d", out.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(out.resolve("log.txt").toFile()).start();
    try {
      String stalled = ProgressDeadline.until(List.of(p.toHandle()), Duration.ofSeconds(120),
          () -> !p.isAlive() || !paused(out).isEmpty());
      for (Path marker : paused(out)) {
        p.destroyForcibly().waitFor();
        Files.delete(marker);
        Path f = PauseBeforeRename.temporaryOf(marker);
        assertTrue(Files.exists(f), "the paused temporary file is left behind");
        return f;
      }
      throw new AssertionError("the writer never paused at output 2 (" + (stalled == null
          ? "it ended" : stalled) + "): " + Files.readString(out.resolve("log.txt")));
    } finally {
      p.destroyForcibly();
    }
  }

  /** The pause markers in {@code out}; none when it cannot be listed. */
  private static List<Path> paused(Path out) {
    try {
      return files(out, PauseBeforeRename.MARKER);
    } catch (IOException e) {
      return List.of();
    }
  }

  private static List<Path> files(Path directory, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(directory)) {
      return new ArrayList<>(s.filter(f -> f.getFileName().toString().endsWith(suffix))
          .sorted().toList());
    }
  }

  /** The file opens, its cycle matches its number, and every value of its field reads back. */
  private static void assertComplete(Path file) {
    String name = file.getFileName().toString();
    int number = Integer.parseInt(name.substring("big.out1.".length(), name.indexOf(".phdf")));
    try (HdfFile h5 = new HdfFile(file)) {
      assertEquals(number, h5.getByPath("Info").getAttribute("NCycle").getData(), name);
      assertArrayEquals(new int[] {27, 1, 36, 36, 36},
          h5.getDatasetByPath("advected").getDimensions(), name);
      double[] values = (double[]) h5.getDatasetByPath("advected").getDataFlat();
      double sum = 0;
      for (double v : values) {
        sum += v;
      }
      assertTrue(sum > 0 && Double.isFinite(sum), name + " holds the sphere");
    }
  }
}
