package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.TestMeshes;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

class OutputsTest {
  @TempDir Path dir;

  private Outputs outputs(String blocks, SimTime tm) {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(16, 8, blocks));
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.1)),
        List.of("base"));
    return new Outputs(mesh, pin, tm, dir);
  }

  @Test
  void givenParthenonsOtherOutputTypes_thenTheyAreSkippedWithOneWarningEach() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    Outputs o = outputs("<parthenon/output0>\nfile_type = vtk\ndt = 0.1\nvariables = q\n"
        + "<parthenon/output1>\nfile_type = ascent\ndt = 0.5\n"
        + "<parthenon/output3>\nfile_type = hst\ndt = 0.1\n"
        + "<parthenon/output4>\nfile_type = hst\ndt = -1\n", tm);
    assertEquals(1, o.outputs().size());
    assertEquals("parthenon.out3.hst",
        ((HistoryFile) o.outputs().get(0)).file().getFileName().toString());
    assertEquals(List.of(
        "<parthenon/output0> file_type = vtk: Metope does not write vtk outputs yet; this"
            + " output is skipped",
        "<parthenon/output1> file_type = ascent: Metope does not write ascent outputs yet; this"
            + " output is skipped"), o.warnings());
  }

  /**
   * Parthenon's fine_advection deck names only fields its package lacks: the output is written
   * with the mesh only, after one warning, as Parthenon writes it (before, the run was refused).
   */
  @Test
  void givenAnHdf5OutputWhoseVariablesAllMatchNothing_thenAWarningAndFilesOfTheMeshOnly() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(16, 8, "<parthenon/output0>\n"
        + "file_type = hdf5\ndt = 0.1\nvariables = scalar, scalar_fine\n"));
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.1)),
        List.of("base"));
    Outputs o = new Outputs(mesh, pin, tm, dir);
    assertEquals(List.of("<parthenon/output0> variables: none of scalar, scalar_fine matches a"
        + " field of this run (q); its files hold the mesh only"), o.warnings());
    o.makeOutputs(mesh, tm, OutputSignal.FINAL, () -> { });
    try (HdfFile h5 = new HdfFile(dir.resolve("parthenon.out0.final.phdf"))) {
      assertEquals(2, h5.getDatasetByPath("Levels").getDimensions()[0]);
      assertFalse(h5.getChildren().containsKey("q"), h5.getChildren().keySet().toString());
    }
  }

  @Test
  void givenAHistoryFileOfAnEarlierRun_thenOneWarningSaysTheRunAppendsToIt() throws Exception {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    String deck = "<parthenon/output2>\nfile_type = hst\ndt = 0.1\n";
    assertTrue(outputs(deck, tm).warnings().isEmpty(), "no file yet");
    Files.writeString(dir.resolve("parthenon.out2.hst"), "");
    assertTrue(outputs(deck, tm).warnings().isEmpty(), "an empty file holds no records");
    Files.writeString(dir.resolve("parthenon.out2.hst"), "#  History data\n");
    assertEquals(List.of("<parthenon/output2> parthenon.out2.hst exists: this run appends its"
        + " records after the old ones, as Parthenon does (remove the file, or write elsewhere"
        + " with -d, for a file of this run only)"), outputs(deck, tm).warnings());
    assertTrue(outputs(deck + "file_number = 3\n", tm).warnings().isEmpty(),
        "a restarted run continues its own file");
  }

  @Test
  void givenHdf5AndRestartBlocks_thenTheRestartOutputComesLastWhateverItsDeckPosition() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    Outputs o = outputs("<parthenon/output0>\nfile_type = rst\ndt = 0.5\n"
        + "<parthenon/output1>\nfile_type = hdf5\ndt = 0.1\nvariables = q\n"
        + "<parthenon/output3>\nfile_type = hst\ndt = 0.1\n", tm);
    assertEquals(List.of("hdf5", "hst", "rst"),
        o.outputs().stream().map(out -> out.parameters().fileType()).toList());
    assertTrue(o.warnings().isEmpty(), o.warnings().toString());
  }

  @Test
  void givenTwoRestartBlocks_thenOneLineNamingTheSecond() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    InputError e = assertThrows(InputError.class,
        () -> outputs("<parthenon/output0>\nfile_type = rst\n"
            + "<parthenon/output1>\nfile_type = rst\n", tm));
    assertEquals("t.in:17: <parthenon/output1> is a second restart output: expected at most one"
        + " output block with file_type = rst", e.getMessage());
  }

  @Test
  void givenACycleCadenceWithoutDt_thenItWritesEveryDnCyclesAndRecordsNextN() {
    SimTime tm = new SimTime(0.0, 100.0, -1, 0, 1, 0, 0.125);
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(16, 8,
        "<parthenon/output1>\nfile_type = hdf5\ndn = 3\nvariables = q\nwrite_xdmf = false\n"));
    Mesh m = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.1)),
        List.of("base"));
    Outputs o = new Outputs(m, pin, tm, dir);
    List<Integer> cycles = new ArrayList<>();
    for (int cycle = 0; cycle <= 7; cycle++) {
      int before = pin.getInteger("parthenon/output1", "file_number");
      o.makeOutputs(m, tm, OutputSignal.NONE, () -> { });
      if (pin.getInteger("parthenon/output1", "file_number") != before) {
        cycles.add(tm.ncycle());
      }
      tm.advance();
    }
    assertEquals(List.of(0, 3, 6), cycles);
    assertEquals(9, pin.getInteger("parthenon/output1", "next_n"));
    assertFalse(pin.doesParameterExist("parthenon/output1", "dt"), "no time cadence recorded");
    assertTrue(java.nio.file.Files.exists(dir.resolve("parthenon.out1.00002.phdf")));
  }

  @Test
  void givenAnUnknownTypeOrFormat_thenOneLineNamingTheKey() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.1);
    InputError type = assertThrows(InputError.class,
        () -> outputs("<parthenon/output0>\nfile_type = csv\n", tm));
    assertEquals("t.in:16: parthenon/output0/file_type = \"csv\": expected hst, hdf5 or rst (or"
        + " one of Parthenon's vtk, ascent, histogram, which Metope skips)", type.getMessage());
    InputError format = assertThrows(InputError.class,
        () -> outputs("<parthenon/output0>\nfile_type = hst\ndata_format = %d\n", tm));
    assertTrue(format.getMessage().startsWith("t.in:17: parthenon/output0/data_format = \"%d\":"
        + " expected a C format of one number"), format.getMessage());
  }

  @Test
  void givenAnOutputEveryQuarter_thenItWritesAtCycleZeroWhenTimeReachesNextTimeAndAtTheEnd() {
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    Outputs o = outputs("<parthenon/output0>\nfile_type = hst\ndt = 0.25\n"
        + "<parthenon/output1>\nfile_type = hst\nid = slow\ndt = 10\n", tm);
    List<String> written = new ArrayList<>();
    Runnable before = () -> written.add("before");
    o.makeOutputs(meshOf(o), tm, OutputSignal.NONE, before);
    written.add("c" + tm.ncycle());
    for (int cycle = 1; cycle <= 8; cycle++) {
      tm.advance();
      double next = o.outputs().get(0).nextTime();
      o.makeOutputs(meshOf(o), tm, tm.ncycle() == 8 ? OutputSignal.FINAL : OutputSignal.NONE,
          before);
      if (o.outputs().get(0).nextTime() != next) {
        written.add("c" + tm.ncycle());
      }
    }
    // History outputs never trigger the work before other outputs.
    assertEquals(List.of("c0", "c2", "c4", "c6", "c8"), written);
    assertEquals(20.0, o.outputs().get(1).nextTime(), "the slow output wrote at cycles 0 and 8");
  }

  private Mesh mesh;

  private Mesh meshOf(Outputs o) {
    if (mesh == null) {
      ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(16, 8, ""));
      mesh = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.1)),
          List.of("base"));
    }
    return mesh;
  }
}
