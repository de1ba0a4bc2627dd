package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;

class Hdf5OutputTest {
  @TempDir Path dir;

  private static final String OUT = "<parthenon/output0>\nfile_type = hdf5\ndt = 0.5\n"
      + "variables = q, v, s\n";

  /** Writes the cycle-0 output of the filled mesh on {@code ranks} ranks into {@code into}. */
  private static void writeOutputs(String extra, int ranks, Path into) {
    writeOutputs(extra, ranks, into, 0);
  }

  /**
   * As {@link #writeOutputs(String, int, Path)}, with field values in messages of at most {@code
   * messageBytes} (0: the default) and deck {@code overrides}; returns, per rank, the longest
   * array of field values the rank allocated for the output.
   */
  private static int[] writeOutputs(String extra, int ranks, Path into, int messageBytes,
      String... overrides) {
    return writeOutputs(extra, ranks, into, messageBytes, (rank, output) -> { }, new boolean[ranks],
        overrides);
  }

  /**
   * As {@link #writeOutputs(String, int, Path, int, String...)}, with {@code setUp} applied to
   * each rank's output before it writes; {@code inPlace[rank]} says whether that rank wrote its
   * values into the file itself.
   */
  private static int[] writeOutputs(String extra, int ranks, Path into, int messageBytes,
      java.util.function.BiConsumer<Integer, Hdf5Output> setUp, boolean[] inPlace,
      String... overrides) {
    int[] largest = new int[ranks];
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("om.in", OutputMeshes.DECK + OUT + extra,
          List.of(overrides));
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      OutputMeshes.fill(mesh);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      Outputs outputs = new Outputs(mesh, pin, tm, into);
      Hdf5Output output = (Hdf5Output) outputs.outputs().get(0);
      if (messageBytes > 0) {
        output.limitMessages(messageBytes);
      }
      setUp.accept(comm.rank(), output);
      outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
      largest[comm.rank()] = output.largestValueBuffer();
      inPlace[comm.rank()] = output.lastWrittenInPlace();
    });
    return largest;
  }

  /**
   * Every rank's line when {@code ranks} ranks write the cycle-0 output into {@code into}, each
   * rank's output set up by {@code setUp} first, and the write must fail.
   */
  private static List<String> failures(int ranks, Path into,
      java.util.function.BiConsumer<Integer, Hdf5Output> setUp) {
    java.util.concurrent.ConcurrentLinkedQueue<String> errors =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = OutputMeshes.pin(OUT);
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      Outputs outputs = new Outputs(mesh, pin, tm, into);
      setUp.accept(comm.rank(), (Hdf5Output) outputs.outputs().get(0));
      errors.add(org.junit.jupiter.api.Assertions.assertThrows(
          org.metope.mesh.DriverError.class,
          () -> outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { })).getMessage());
    });
    return List.copyOf(errors);
  }

  private static double[] flat(HdfFile h5, String name) {
    return (double[]) h5.getDatasetByPath(name).getDataFlat();
  }

  /** The values the file must hold for {@code field}: the fill function on interior cells. */
  private static double[] expected(int field, int ncomp, boolean ghosts, boolean allocatedOnly1) {
    int g = ghosts ? 0 : 2;
    int nj = ghosts ? 8 : 4;
    int ni = ghosts ? 12 : 8;
    List<Double> v = new ArrayList<>();
    for (int gid = 0; gid < 4; gid++) {
      for (int c = 0; c < ncomp; c++) {
        for (int j = 0; j < nj; j++) {
          for (int i = 0; i < ni; i++) {
            boolean zero = allocatedOnly1 && gid != 1;
            v.add(zero ? 0.0 : OutputMeshes.value(gid, field, c, 0, j + g, i + g));
          }
        }
      }
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  @Test
  void givenFourBlocks_thenParthenonsLayoutWithTheRunsValues() {
    writeOutputs("", 1, dir);
    try (HdfFile h5 = new HdfFile(dir.resolve("om.out0.00000.phdf"))) {
      Dataset q = h5.getDatasetByPath("q");
      assertArrayEquals(new int[] {4, 1, 4, 8}, q.getDimensions());
      assertArrayEquals(expected(0, 1, false, false), flat(h5, "q"));
      assertArrayEquals(new int[] {4, 2, 1, 4, 8}, h5.getDatasetByPath("v").getDimensions());
      assertArrayEquals(expected(1, 2, false, false), flat(h5, "v"));
      assertArrayEquals(expected(2, 1, false, true), flat(h5, "s_1"));
      assertArrayEquals(new double[128], flat(h5, "s_2"));
      // Unsigned 8-bit, as Parthenon's; jhdf reads those as ints.
      assertArrayEquals(new int[] {0, 0, 1, 0, 0, 0, 0, 0},
          (int[]) h5.getDatasetByPath("SparseInfo").getDataFlat());
      var info = h5.getByPath("Info");
      assertEquals(4, info.getAttribute("NumMeshBlocks").getData());
      assertArrayEquals(new int[] {8, 4, 1}, (int[]) info.getAttribute("MeshBlockSize").getData());
      assertArrayEquals(new String[] {"q", "s_1", "s_2", "v"},
          (String[]) info.getAttribute("OutputDatasetNames").getData());
      assertArrayEquals(new String[] {"q", "s_1", "s_2", "v_vx", "v_vy"},
          (String[]) info.getAttribute("ComponentNames").getData());
      assertArrayEquals(new String[] {"periodic", "periodic", "outflow", "outflow", "outflow",
          "outflow"}, (String[]) info.getAttribute("BoundaryConditions").getData());
      assertEquals(1, info.getAttribute("RootLevel").getData(), "2 x 2 root blocks: one tree level");
      assertEquals(0.25, h5.getByPath("Params").getAttribute("pkg/cfl").getData());
      assertEquals(1, h5.getByPath("Params").getAttribute("pkg/flag").getData());
      assertEquals("hello", h5.getByPath("Params").getAttribute("pkg/name").getData());
      double[] x = flat(h5, "Locations/x");
      assertEquals(36, x.length);
      assertEquals(-1.0, x[0]);
      assertEquals(0.0, x[8]);
      assertEquals(0.0, x[9]);
      assertEquals(0.03125, flat(h5, "VolumeLocations/y")[0], "half of dy = 0.5 / 8");
      assertArrayEquals(new long[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0},
          (long[]) h5.getDatasetByPath("LogicalLocations").getDataFlat());
      assertTrue(((String) h5.getByPath("Input").getAttribute("File").getData())
          .matches("(?s).*variables +=.*q, v, s.*<par_end>.*"));
    }
  }

  @Test
  void givenTwoRanks_thenEveryDatasetEqualsTheOneRankFile() throws Exception {
    Path one = Files.createDirectory(dir.resolve("one"));
    Path two = Files.createDirectory(dir.resolve("two"));
    writeOutputs("", 1, one);
    writeOutputs("", 2, two);
    try (HdfFile a = new HdfFile(one.resolve("om.out0.00000.phdf"));
        HdfFile b = new HdfFile(two.resolve("om.out0.00000.phdf"))) {
      for (String name : List.of("q", "v", "s_1", "s_2", "Locations/x", "Blocks/xmin")) {
        assertArrayEquals(flat(a, name), flat(b, name), name);
      }
      assertArrayEquals((int[]) a.getDatasetByPath("SparseInfo").getDataFlat(),
          (int[]) b.getDatasetByPath("SparseInfo").getDataFlat());
      assertArrayEquals(new int[] {2, 2},
          (int[]) b.getByPath("Info").getAttribute("BlocksPerPE").getData());
      assertArrayEquals(new int[] {0, 1, 0, 1},
          lids((int[]) b.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag")
              .getDataFlat()));
    }
  }

  /**
   * One, two and four ranks, with messages of the default size or of one block (so that rank 0
   * writes while several messages of every rank are in flight): every dataset holds the same
   * bytes and every attribute the same value (the checksums of the values included), and every
   * file passes its integrity check.
   */
  @Test
  void givenOneTwoAndFourRanksAndSmallMessages_thenEveryDatasetHasTheSameBytes()
      throws Exception {
    Path reference = Files.createDirectory(dir.resolve("reference"));
    writeOutputs("ghost_zones = true\n", 1, reference, 0);
    Map<String, List<Object>> expected = PhdfContents.of(reference.resolve("om.out0.00000.phdf"));
    assertTrue(expected.containsKey("/v") && expected.containsKey("/s_1"), expected.toString());
    for (int ranks : new int[] {1, 2, 4}) {
      for (int messageBytes : new int[] {0, 8 * 12 * 8 * 2}) {
        Path into = Files.createDirectory(dir.resolve(ranks + "-" + messageBytes));
        writeOutputs("ghost_zones = true\n", ranks, into, messageBytes);
        Path file = into.resolve("om.out0.00000.phdf");
        assertEquals(null, FileIntegrity.problem(file));
        PhdfContents.assertSame(expected, PhdfContents.of(file), ranks + " ranks, messages of "
            + messageBytes + " bytes");
      }
    }
  }

  /**
   * Streamed to rank 0 (rank 1 cannot open the file), rank 0's buffers for field values stay at
   * one message (here one block of {@code v}, its largest variable: 2 x 8 x 12 values with ghosts)
   * on a mesh of 64 blocks, whose output holds 160 times that; written in place, each rank's
   * buffer is one chunk of its own blocks, of the same bound. The values are those of a one-rank
   * run either way. Negative control: with messages that may hold a rank's every block, the
   * buffer holds a rank's 32 blocks of {@code v}.
   */
  @Test
  void givenManyBlocksAndSmallMessages_thenRankZerosBufferHoldsOneMessage() throws Exception {
    String[] wide = {"parthenon/mesh/nx1=64", "parthenon/mesh/nx2=32"};
    int perBlockOfV = 2 * 8 * 12;
    Path one = Files.createDirectory(dir.resolve("one"));
    writeOutputs("ghost_zones = true\n", 1, one, 0, wide);
    Map<String, List<Object>> expected = PhdfContents.of(one.resolve("om.out0.00000.phdf"));
    int outputValues = 64 * (8 * 12 + perBlockOfV + 2 * 8 * 12);
    for (boolean streamed : new boolean[] {true, false}) {
      Path small = Files.createDirectory(dir.resolve("small-" + streamed));
      boolean[] inPlace = new boolean[2];
      int[] largest = writeOutputs("ghost_zones = true\n", 2, small, perBlockOfV * 8,
          (rank, output) -> {
            if (streamed && rank == 1) {
              output.hideFileFromThisRank();
            }
          }, inPlace, wide);
      assertArrayEquals(new boolean[] {!streamed, !streamed}, inPlace);
      assertEquals(perBlockOfV, largest[0]);
      assertEquals(160 * largest[0], outputValues);
      PhdfContents.assertSame(expected, PhdfContents.of(small.resolve("om.out0.00000.phdf")),
          "small, streamed=" + streamed);
    }
    for (boolean streamed : new boolean[] {true, false}) {
      Path whole = Files.createDirectory(dir.resolve("whole-" + streamed));
      int[] largest = writeOutputs("ghost_zones = true\n", 2, whole, 1 << 30, (rank, output) -> {
        if (streamed && rank == 1) {
          output.hideFileFromThisRank();
        }
      }, new boolean[2], wide);
      assertEquals(32 * perBlockOfV, largest[0], "negative control: a rank's 32 blocks, "
          + "streamed=" + streamed);
    }
  }

  /**
   * Two, three and four ranks that all open rank 0's file each write their own values into it
   * (in single precision too, whose parts' checksums combine over 4-byte values): the same
   * datasets and attributes as one rank's file, checksums included, and a sound seal. With one
   * rank that cannot open the file, or one on another machine (the test's file system is a local
   * one, not a coherent parallel one), every rank streams instead, to the same file.
   */
  @Test
  void givenRanksThatOpenTheFile_thenEachWritesItsOwnValuesAndTheFileIsTheOneRanksFile()
      throws Exception {
    for (String precision : new String[] {"", "single_precision_output = true\n"}) {
      String extra = "ghost_zones = true\n" + precision;
      Path reference = Files.createDirectory(dir.resolve("reference" + precision.length()));
      writeOutputs(extra, 1, reference, 0);
      Map<String, List<Object>> expected =
          PhdfContents.of(reference.resolve("om.out0.00000.phdf"));
      for (int ranks : new int[] {2, 3, 4}) {
        for (String last : new String[] {"sees the file", "cannot open it", "is elsewhere"}) {
          Path into = Files.createDirectory(dir.resolve(ranks + "-" + last.length() + "-"
              + precision.length()));
          boolean[] inPlace = new boolean[ranks];
          writeOutputs(extra, ranks, into, 8 * 12 * 8, (rank, output) -> {
            if (rank == ranks - 1 && last.equals("cannot open it")) {
              output.hideFileFromThisRank();
            } else if (rank == ranks - 1 && last.equals("is elsewhere")) {
              output.actOnAnotherMachine(); // on a local disk, not a coherent parallel one
            }
          }, inPlace);
          boolean[] expectedInPlace = new boolean[ranks];
          java.util.Arrays.fill(expectedInPlace, last.equals("sees the file"));
          assertArrayEquals(expectedInPlace, inPlace, ranks + " ranks, the last " + last);
          Path file = into.resolve("om.out0.00000.phdf");
          assertEquals(null, FileIntegrity.problem(file));
          PhdfContents.assertSame(expected, PhdfContents.of(file), ranks + " ranks, the last "
              + last + ", " + precision);
        }
      }
    }
  }

  /**
   * {@code <metope> shared_file_writes = false}: two ranks that both open rank 0's file stream
   * their values to rank 0 anyway, to the one-rank file, and rank 0's closing line counts no file
   * written in place; left at its default, the same ranks write in place and the line counts the
   * file.
   */
  @Test
  void givenSharedFileWritesOff_thenRanksThatOpenTheFileStreamAndTheLineSaysSo()
      throws Exception {
    for (String allowed : new String[] {"true", "false"}) {
      Path reference = Files.createDirectory(dir.resolve("reference-" + allowed));
      writeOutputs("", 1, reference, 0, "metope/shared_file_writes=" + allowed);
      Map<String, List<Object>> expected =
          PhdfContents.of(reference.resolve("om.out0.00000.phdf"));
      Path into = Files.createDirectory(dir.resolve("shared-" + allowed));
      String[] summary = new String[2];
      boolean[] inPlace = new boolean[2];
      InProcessRun.run(2, comm -> {
        ParameterInput pin = ParameterInput.parse("om.in", OutputMeshes.DECK + OUT,
            List.of("metope/shared_file_writes=" + allowed));
        Mesh mesh = OutputMeshes.mesh(pin, comm);
        OutputMeshes.fill(mesh);
        SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
        Outputs outputs = new Outputs(mesh, pin, tm, into);
        outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
        inPlace[comm.rank()] = ((Hdf5Output) outputs.outputs().get(0)).lastWrittenInPlace();
        summary[comm.rank()] = outputs.sharedWriteSummary(comm.size());
      });
      boolean on = allowed.equals("true");
      assertArrayEquals(new boolean[] {on, on}, inPlace, "shared_file_writes=" + allowed);
      assertEquals("HDF5 files: every rank wrote its own values into " + (on ? 1 : 0) + " of 1"
          + " (the others' values were sent to rank 0)", summary[0]);
      PhdfContents.assertSame(expected, PhdfContents.of(into.resolve("om.out0.00000.phdf")),
          "shared_file_writes=" + allowed);
    }
  }

  /**
   * A rank whose part fails (a full disk) fails the output on every rank with the same line,
   * naming the file and the rank, and leaves neither the file nor a temporary one.
   */
  @Test
  void givenARankWhosePartFails_thenEveryRankFailsWithOneLineAndNoFileIsLeft() throws Exception {
    for (int failing : new int[] {2, 0}) {
      Path into = Files.createDirectory(dir.resolve("failing-" + failing));
      List<String> errors = failures(3, into, (rank, output) -> {
        if (rank == failing) {
          output.failNextPartOnThisRank();
        }
      });
      assertEquals(3, errors.size());
      String line = errors.get(0);
      assertEquals("cannot write the output file " + into.resolve("om.out0.00000.phdf") + " ("
          + (failing == 0 ? "No space left on device (a test's)"
              : "rank 2 could not write its values into the file") + ")", line);
      assertTrue(errors.stream().allMatch(line::equals), errors.toString());
      try (var left = Files.list(into)) {
        assertEquals(List.of(), left.toList());
      }
    }
  }

  @Test
  void givenAFileWithAnotherTokenOrNone_thenNotTheSameFile() throws Exception {
    Path file = dir.resolve("shared.tmp");
    Files.write(file, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 42});
    try (var same = SharedFileWrite.openIfSame(file, 2, 42L)) {
      assertTrue(same != null, "the token 42 at byte 2");
    }
    assertEquals(null, SharedFileWrite.openIfSame(file, 2, 43));
    assertEquals(null, SharedFileWrite.openIfSame(file, 4, 42), "past the end of the file");
    assertEquals(null, SharedFileWrite.openIfSame(dir.resolve("missing"), 2, 42));
  }

  private static int[] lids(int[] ids) {
    int[] lids = new int[ids.length / 5];
    for (int b = 0; b < lids.length; b++) {
      lids[b] = ids[5 * b + 2];
    }
    return lids;
  }

  @Test
  void givenGhostZones_thenEntireBlocksAndTheirFaces() {
    writeOutputs("ghost_zones = true\n", 1, dir);
    try (HdfFile h5 = new HdfFile(dir.resolve("om.out0.00000.phdf"))) {
      assertArrayEquals(new int[] {4, 1, 8, 12}, h5.getDatasetByPath("q").getDimensions());
      assertArrayEquals(expected(0, 1, true, false), flat(h5, "q"));
      assertEquals(1, h5.getByPath("Info").getAttribute("IncludesGhost").getData());
      double[] x = flat(h5, "Locations/x");
      assertEquals(4 * 13, x.length);
      assertEquals(-1.25, x[0]);
    }
  }

  @Test
  void givenSinglePrecision_thenFloatsRoundedFromTheValues() {
    writeOutputs("single_precision_output = true\n", 1, dir);
    try (HdfFile h5 = new HdfFile(dir.resolve("om.out0.00000.phdf"))) {
      float[] q = (float[]) h5.getDatasetByPath("q").getDataFlat();
      double[] expected = expected(0, 1, false, false);
      for (int n = 0; n < q.length; n++) {
        assertEquals((float) expected[n], q[n]);
      }
    }
  }

  @Test
  void givenAnUnwritableDirectory_thenEveryRankFailsWithTheSameLineNamingTheFile()
      throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
    List<String> errors = failures(2, notADirectory, (rank, output) -> { });
    assertEquals(2, errors.size());
    String line = errors.get(0);
    assertTrue(line.startsWith("cannot write the output file "
        + notADirectory.resolve("om.out0.00000.phdf") + " ("), line);
    assertTrue(errors.stream().allMatch(line::equals), errors.toString());
  }

  @Test
  void givenSignalsAndSettings_thenParthenonsFileNames() {
    ParameterInput pin = OutputMeshes.pin(OUT + "file_number_width = 3\n"
        + "<parthenon/output1>\nfile_type = rst\nuse_final_label = false\nfile_number = 12\n");
    Mesh mesh = OutputMeshes.mesh(pin, InProcessCluster.singleRank());
    Outputs outputs = new Outputs(mesh, pin, new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1), dir);
    Hdf5Output h = (Hdf5Output) outputs.outputs().get(0);
    Hdf5Output r = (Hdf5Output) outputs.outputs().get(1);
    assertEquals("om.out0.000.phdf", h.fileName(OutputSignal.NONE));
    assertEquals("om.out0.final.phdf", h.fileName(OutputSignal.FINAL));
    assertEquals("om.out0.now.phdf", h.fileName(OutputSignal.NOW));
    assertEquals("om.out1.00012.rhdf", r.fileName(OutputSignal.FINAL));
  }

  @Test
  void givenARegularOutput_thenCountersAdvanceBeforeTheDeckIsStored() {
    writeOutputs("", 1, dir);
    try (HdfFile h5 = new HdfFile(dir.resolve("om.out0.00000.phdf"))) {
      String deck = (String) h5.getByPath("Input").getAttribute("File").getData();
      ParameterInput stored = ParameterInput.parse("stored", deck, List.of());
      assertEquals(1, stored.getInteger("parthenon/output0", "file_number"));
      assertEquals(0.5, stored.getReal("parthenon/output0", "next_time"));
    }
  }
}
