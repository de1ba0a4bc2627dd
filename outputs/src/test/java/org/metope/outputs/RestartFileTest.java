package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

class RestartFileTest {
  @TempDir Path dir;

  private static final String RST = "<parthenon/output1>\nfile_type = rst\ndt = 0.25\n";

  /** Writes the restart file of the filled mesh at cycle 3, time 0.375, next step 0.125. */
  private Path writeRestart(int ranks) {
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = OutputMeshes.pin(RST);
      Mesh mesh = OutputMeshes.mesh(pin, comm);
      OutputMeshes.fill(mesh);
      mesh.packages().get("pkg").updateParam("counter", 9);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      tm.advance();
      tm.advance();
      tm.advance();
      new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.FINAL, () -> { });
    });
    return dir.resolve("om.out1.final.rhdf");
  }

  private static Mesh restored(RestartFile rst, Communicator comm) {
    ParameterInput pin = ParameterInput.parse("r", rst.deck(), List.of());
    Mesh mesh = OutputMeshes.mesh(pin, comm);
    rst.restoreFields(mesh);
    rst.restoreParams(mesh);
    return mesh;
  }

  /** Whether every restart field of {@code mesh} holds the fill function on the interior. */
  private static void assertInteriorRestored(Mesh mesh) {
    ArenaLayout layout = mesh.fields().layout();
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      int inst = layout.dataInstance(f.id(), 0);
      for (int b = 0; b < mesh.blocks().size(); b++) {
        int gid = mesh.blocks().get(b).gid();
        boolean restartField = !f.name().equals("d");
        boolean allocated = !f.isSparse() || (f.name().equals("s_1") && gid == 1);
        assertEquals(allocated, mesh.fields().isAllocated(f.id(), b), f.name() + " gid " + gid);
        if (!allocated) {
          continue;
        }
        for (int c = 0; c < f.numComponents(); c++) {
          for (int j = 0; j < 8; j++) {
            for (int i = 0; i < 12; i++) {
              boolean interior = j >= 2 && j < 6 && i >= 2 && i < 10;
              double expected = restartField && interior
                  ? OutputMeshes.value(gid, f.id(), c, 0, j, i) : 0.0;
              assertEquals(expected, mesh.fields().data()[layout.index(inst, b, c, 0, j, i)],
                  f.name() + " gid " + gid + " c " + c + " j " + j + " i " + i);
            }
          }
        }
      }
    }
  }

  @Test
  void givenARestartFile_thenClockTreeDeckFieldsAndRestartParamsComeBack() {
    Path file = writeRestart(1);
    try (RestartFile rst = RestartFile.open(file)) {
      assertEquals(3, rst.ncycle());
      assertEquals(0.375, rst.time());
      assertEquals(0.125, rst.dt());
      assertEquals(4, rst.locations().size());
      assertEquals(List.of(0, 0, 0, 0), java.util.Arrays.stream(rst.derefinementCounts())
          .boxed().toList());
      assertTrue(rst.deck().contains("<parthenon/output1>"), rst.deck());
      Mesh mesh = restored(rst, InProcessCluster.singleRank());
      assertEquals(rst.locations(), mesh.locations());
      assertInteriorRestored(mesh);
      assertEquals(9, mesh.packages().get("pkg").params().getInt("counter"),
          "a RESTART parameter takes the file's value");
    }
  }

  @Test
  void givenAFileWrittenOnTwoRanks_thenOneAndThreeRanksRestoreTheSameFields() {
    Path file = writeRestart(2);
    for (int ranks : new int[] {1, 3}) {
      InProcessRun.run(ranks, comm -> {
        try (RestartFile rst = RestartFile.open(file)) {
          assertInteriorRestored(restored(rst, comm));
        }
      });
    }
  }

  @Test
  void givenATreeFromTheFile_thenTheMeshBuiltFromItHasTheSameBlocks() {
    ParameterInput pin = ParameterInput.parse("s", "<parthenon/mesh>\nrefinement = static\n"
        + "numlevel = 3\nnx1 = 32\nx1min = 0\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
        + "nx2 = 32\nx2min = 0\nx2max = 1\nix2_bc = periodic\nox2_bc = periodic\nnx3 = 1\n"
        + "x3min = 0\nx3max = 1\n<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\n"
        + "<parthenon/static_refinement0>\nx1min = 0.4\nx1max = 0.45\nx2min = 0.4\n"
        + "x2max = 0.45\nlevel = 2\n", List.of());
    MeshConfiguration config = MeshConfiguration.fromInput(pin);
    Mesh reference = Mesh.build(config, InProcessCluster.singleRank());
    assertTrue(reference.currentLevel() > reference.rootLevel() + 1, "a three-level tree");
    Mesh rebuilt = Mesh.build(config, InProcessCluster.singleRank(), reference.locations());
    assertEquals(reference.locations(), rebuilt.locations());
    assertThrows(IllegalArgumentException.class, () -> Mesh.build(config,
        InProcessCluster.singleRank(), reference.locations().subList(0, 3)),
        "three blocks do not cover the root grid");
  }

  @Test
  void givenAMissingFileOrAnotherKindOfFile_thenOneLineNamingIt() throws Exception {
    Path missing = dir.resolve("nope.rhdf");
    InputError e = assertThrows(InputError.class, () -> RestartFile.open(missing));
    assertEquals(missing + ": cannot read the restart file (no such file): expected an intact .rhdf file"
        + " written by a run with a file_type = rst output", e.getMessage());
    Path text = Files.writeString(dir.resolve("deck.rhdf"), "<parthenon/mesh>\n");
    InputError t = assertThrows(InputError.class, () -> RestartFile.open(text));
    assertTrue(t.getMessage().startsWith(text + ": cannot read the restart file"),
        t.getMessage());
    assertEquals(1, t.getMessage().lines().count());
  }

  @Test
  void givenARunWhoseMeshDiffers_thenOneLineSayingTheFileDoesNotFit() {
    Path file = writeRestart(1);
    try (RestartFile rst = RestartFile.open(file)) {
      ParameterInput pin = ParameterInput.parse("r", rst.deck(),
          List.of("parthenon/meshblock/nx1=4"));
      Mesh mesh = OutputMeshes.mesh(pin, InProcessCluster.singleRank());
      InputError e = assertThrows(InputError.class, () -> rst.restoreFields(mesh));
      assertTrue(e.getMessage().startsWith(file + ": the restart file does not fit this run:"),
          e.getMessage());
    }
  }
}
