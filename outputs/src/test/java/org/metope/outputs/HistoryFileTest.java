package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessRun;
import org.metope.comm.ProgressDeadline;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.TestMeshes;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskThreadPool;

class HistoryFileTest {
  @TempDir Path dir;

  private static final String HST = "<parthenon/job>\nproblem_id = toy\n"
      + "<parthenon/output2>\nfile_type = hst\ndt = 0.5\n";

  private static Mesh mesh(ParameterInput pin, StateDescriptor... extra) {
    StateDescriptor[] all = new StateDescriptor[extra.length + 1];
    all[0] = TestMeshes.toyPackage(0.1);
    System.arraycopy(extra, 0, all, 1, extra.length);
    return TestMeshes.mesh(pin, TestMeshes.packages(all), List.of("base"));
  }

  @Test
  void givenScalarAndVectorOutputs_thenParthenonsHeaderAndColumnsSumsThenMaxThenMin()
      throws IOException {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST));
    Mesh mesh = mesh(pin);
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    Outputs outputs = new Outputs(mesh, pin, tm, dir);
    outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    tm.advance();
    outputs.makeOutputs(mesh, tm, OutputSignal.FINAL, () -> { });

    // Blocks have gids 0..3: vec = (4, 0+1+2+3), gids = 6, top = 3, bottom = -3.
    assertEquals(List.of(
        "#  History data",
        "# [1]=time     [2]=dt       [3]=cycle    [4]=nbtotal  [5]=gids     [6]=vec_0    "
            + "[7]=vec_1    [8]=top      [9]=bottom  ",
        "  0.00000e+00  1.25000e-01            0            4  6.00000e+00  4.00000e+00"
            + "  6.00000e+00  3.00000e+00 -3.00000e+00",
        "  1.25000e-01  1.25000e-01            1            4  6.00000e+00  4.00000e+00"
            + "  6.00000e+00  3.00000e+00 -3.00000e+00"),
        Files.readAllLines(dir.resolve("toy.out2.hst")));
    assertEquals("2", pin.getString("parthenon/output2", "file_number"));
    assertEquals("1.0", pin.getString("parthenon/output2", "next_time"));
  }

  @Test
  void givenAPackageSelection_thenOnlyItsColumnsAndAnUnknownPackageIsADeckError()
      throws IOException {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST + "packages = other\n"));
    Mesh mesh = mesh(pin, new StateDescriptor("other"));
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    assertEquals("# [1]=time     [2]=dt       [3]=cycle    [4]=nbtotal ",
        Files.readAllLines(dir.resolve("toy.out2.hst")).get(1));

    ParameterInput bad = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST + "packages = nope\n"));
    InputError e = assertThrows(InputError.class,
        () -> new Outputs(mesh(bad), bad, tm, dir));
    assertEquals("t.in:20: parthenon/output2/packages = \"nope\": expected names of packages of"
        + " this run (toy); there is no package nope", e.getMessage());
  }

  /**
   * Two history files due at the same time, the second a package selection of the first's columns
   * (Parthenon's 2D adaptive deck): the package's function runs once per block for both, and both
   * files show its sum. Without the round's sharing it would run twice per block.
   */
  @Test
  void givenTwoHistoryFilesDueTogether_thenTheirFunctionsRunOncePerBlock() throws IOException {
    int[] calls = new int[1];
    StateDescriptor counted = countedPackage(calls, () -> 1.0);
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST
        + "<parthenon/output3>\nfile_type = hst\ndt = 0.5\npackages = counted\n"));
    Mesh mesh = mesh(pin, counted);
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    assertEquals(4, calls[0], "one call per block of the 4, for both files");
    assertEquals("4.00000e+00", column(dir.resolve("toy.out3.hst"), "counted"));
    assertEquals("4.00000e+00", column(dir.resolve("toy.out2.hst"), "counted"));
  }

  /**
   * A history file after an HDF5 output in the same call reduces its columns again: the user work
   * before that output changed what the function reads, and the second file shows the new value.
   */
  @Test
  void givenAnOtherOutputBetweenTwoHistoryFiles_thenTheSecondReducesAfresh() throws IOException {
    int[] calls = new int[1];
    double[] value = {1.0};
    StateDescriptor counted = countedPackage(calls, () -> value[0]);
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST
        + "<parthenon/output3>\nfile_type = hdf5\ndt = 0.5\nvariables = q\n"
        + "<parthenon/output4>\nfile_type = hst\ndt = 0.5\npackages = counted\n"));
    Mesh mesh = mesh(pin, counted);
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.NONE,
        () -> value[0] = 2.0);
    assertEquals(8, calls[0], "each file reduced its own");
    assertEquals("4.00000e+00", column(dir.resolve("toy.out2.hst"), "counted"));
    assertEquals("8.00000e+00", column(dir.resolve("toy.out4.hst"), "counted"));
  }

  /** A package {@code counted} whose one history output sums {@code value} and counts calls. */
  private static StateDescriptor countedPackage(int[] calls, DoubleSupplier value) {
    StateDescriptor pkg = new StateDescriptor("counted");
    pkg.addHistoryOutput(HistoryOutput.of(Operation.SUM, "counted", (md, b) -> {
      calls[0]++;
      return value.getAsDouble();
    }));
    return pkg;
  }

  /** The value in column {@code label} (by the header) of the last line of {@code file}. */
  private static String column(Path file, String label) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String header = lines.get(1);
    int at = header.indexOf("]=" + label + " ");
    int number = Integer.parseInt(header.substring(header.lastIndexOf('[', at) + 1, at));
    return lines.get(lines.size() - 1).trim().split("\\s+")[number - 1];
  }

  @Test
  void givenAnExistingFile_thenANewRunAppendsWithItsOwnHeader() throws IOException {
    Files.writeString(dir.resolve("toy.out2.hst"), "old line\n");
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, HST));
    Mesh mesh = mesh(pin);
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    List<String> lines = Files.readAllLines(dir.resolve("toy.out2.hst"));
    assertEquals("old line", lines.get(0));
    assertEquals("#  History data", lines.get(1));
    assertEquals(4, lines.size());
  }

  @Test
  void givenTwoRanks_thenTheFileEqualsTheOneRankFile() throws IOException {
    Path one = Files.createDirectory(dir.resolve("one"));
    Path two = Files.createDirectory(dir.resolve("two"));
    String deck = TestMeshes.deck1d(32, 4, HST + "data_format = %.17e\n");
    for (Path out : List.of(one, two)) {
      int ranks = out == one ? 1 : 2;
      InProcessRun.run(ranks, comm -> {
        ParameterInput pin = TestMeshes.pin(deck);
        Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.1)),
            List.of("base"), comm);
        SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
        new Outputs(mesh, pin, tm, out).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
      });
    }
    String expected = Files.readString(one.resolve("toy.out2.hst"));
    assertEquals(expected, Files.readString(two.resolve("toy.out2.hst")));
    // gids 0..7 sum to 28, the largest is 7.
    assertEquals(" 0.00000000000000000e+00 1.25000000000000000e-01            0            8"
        + " 2.80000000000000000e+01 8.00000000000000000e+00 2.80000000000000000e+01"
        + " 7.00000000000000000e+00 -7.00000000000000000e+00", expected.lines().toList().get(2));
  }

  /**
   * A package whose sum depends on the order of its terms (1e16 and small values), and whose
   * function waits at {@code meeting} on the first block of the first two partitions, so it
   * completes only when two threads evaluate partitions at the same time.
   */
  private static StateDescriptor orderSensitive(CountDownLatch meeting, int blocksPerPartition) {
    StateDescriptor pkg = new StateDescriptor("order");
    pkg.addHistoryOutput(HistoryOutput.of(Operation.SUM, "mixed", (md, b) -> {
      int gid = md.block(b).gid();
      if (meeting != null && b == 0 && gid < 2 * blocksPerPartition) {
        try {
          meeting.countDown();
          String stalled = ProgressDeadline.untilHere(Duration.ofSeconds(20),
              () -> meeting.getCount() == 0);
          if (stalled != null) {
            throw new IllegalStateException("partitions did not meet: " + stalled);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("partitions did not meet: interrupted");
        }
      }
      return gid % 3 == 0 ? 1e16 : 0.1 * (gid + 1);
    }));
    return pkg;
  }

  @Test
  void givenTaskThreads_thenPartitionsEvaluateAtOnceAndTheRecordHasTheSameBits() throws Exception {
    String deck = TestMeshes.deck1d(64, 4, HST + "data_format = %.17e\n"
        + "<parthenon/mesh>\npack_size = 3\n");
    Path serial = Files.createDirectory(dir.resolve("serial"));
    Path threads = Files.createDirectory(dir.resolve("threads"));
    for (Path out : List.of(serial, threads)) {
      ParameterInput pin = TestMeshes.pin(deck);
      boolean parallel = out == threads;
      Mesh mesh = mesh(pin, orderSensitive(parallel ? new CountDownLatch(2) : null, 3));
      assertEquals(6, mesh.meshData("base").size(), "16 blocks in partitions of 3");
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      Outputs outputs = new Outputs(mesh, pin, tm, out);
      try (TaskThreadPool pool = new TaskThreadPool(2)) {
        outputs.useThreads(parallel ? pool : null);
        outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
      }
    }
    List<String> expected = Files.readAllLines(serial.resolve("toy.out2.hst"));
    assertEquals(expected, Files.readAllLines(threads.resolve("toy.out2.hst")));
    // Column 8 (mixed, after time, dt, cycle, nbtotal, gids and vec): the sum in global block
    // order, which differs from other orders in its last digits.
    double sum = 0.0;
    for (int gid = 0; gid < 16; gid++) {
      sum += gid % 3 == 0 ? 1e16 : 0.1 * (gid + 1);
    }
    assertEquals(String.format(java.util.Locale.ROOT, "%.17e", sum),
        expected.get(2).trim().split("\\s+")[7]);
  }
}
