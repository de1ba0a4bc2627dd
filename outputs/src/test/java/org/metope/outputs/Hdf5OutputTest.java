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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;

class Hdf5OutputTest {
  @TempDir Path dir;

  private static final String OUT = "<parthenon/output0>\nfile_type = hdf5\ndt = 0.5\n"
      + "variables = q, v, s\n";

  /** Writes the cycle-0 output of the filled mesh on {@code ranks} ranks into {@code into}. */
  private static void writeOutputs(String extra, int ranks, Path into) {
    InProcessCluster.run(ranks, comm -> {
      ParameterInput pin = OutputMeshes.pin(OUT + extra);
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      OutputMeshes.fill(mesh);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      new Outputs(mesh, pin, tm, into).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    });
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
      assertArrayEquals(new byte[] {0, 0, 1, 0, 0, 0, 0, 0},
          (byte[]) h5.getDatasetByPath("SparseInfo").getDataFlat());
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
      assertEquals((byte) 1, h5.getByPath("Params").getAttribute("pkg/flag").getData());
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
      assertArrayEquals((byte[]) a.getDatasetByPath("SparseInfo").getDataFlat(),
          (byte[]) b.getDatasetByPath("SparseInfo").getDataFlat());
      assertArrayEquals(new int[] {2, 2},
          (int[]) b.getByPath("Info").getAttribute("BlocksPerPE").getData());
      assertArrayEquals(new int[] {0, 1, 0, 1},
          lids((int[]) b.getDatasetByPath("Blocks/loc.level-gid-lid-cnghost-gflag")
              .getDataFlat()));
    }
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
    java.util.concurrent.ConcurrentLinkedQueue<String> errors =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    InProcessCluster.run(2, comm -> {
      ParameterInput pin = OutputMeshes.pin(OUT);
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      Outputs outputs = new Outputs(mesh, pin, tm, notADirectory);
      errors.add(org.junit.jupiter.api.Assertions.assertThrows(
          org.metope.mesh.DriverError.class,
          () -> outputs.makeOutputs(mesh, tm, OutputSignal.NONE, () -> { })).getMessage());
    });
    assertEquals(2, errors.size());
    String line = errors.peek();
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
