package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * {@code FINE} fields in HDF5 outputs and restart files, as Parthenon's {@code PHDF5Output} writes
 * them ({@code VarInfo} with {@code f_cellbounds}): one dataset of {@code [blocks, shape..., nk,
 * nj, ni]} with twice the block's interior cells along every active axis (Parthenon's
 * fine_advection restart holds {@code phi_fine} as {@code [94, 1, 32, 32]} for 16 x 16 blocks).
 * Every interior value of the storage is read back where that layout puts it, a restart written
 * on two ranks restores them bit for bit on one and three, and the XDMF companion leaves the
 * field out (its shape does not fit the block's grid).
 */
class FineOutputTest {
  @TempDir Path dir;

  private static final String OUT = "<parthenon/output0>\nfile_type = hdf5\nvariables = c, f\n"
      + "<parthenon/output1>\nfile_type = rst\ndt = 1\n";

  private static Mesh mesh(ParameterInput pin, Communicator comm) {
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addField("c", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT));
    pkg.addField("f", Metadata.builder(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT)
        .shape(2).build());
    return OutputMeshes.mesh(pin, comm, pkg, "base");
  }

  /** A value no other (block, field, component, j, i) of these meshes has. */
  private static double value(int gid, int field, int c, int j, int i) {
    return gid * 1.0e5 + field * 1.0e4 + c * 1.0e3 + j * 32 + i + 0.125;
  }

  /** Every stored value of both fields, ghosts included, is its own known value. */
  private static void fill(Mesh mesh) {
    ArenaLayout layout = mesh.fields().layout();
    for (int field = 0; field < 2; field++) {
      int inst = layout.dataInstance(field, 0);
      for (int b = 0; b < mesh.blocks().size(); b++) {
        for (int c = 0; c < layout.numComponents(inst); c++) {
          for (int j = 0; j < layout.nj(inst); j++) {
            for (int i = 0; i < layout.ni(inst); i++) {
              mesh.fields().data()[layout.index(inst, b, c, 0, j, i)] =
                  value(mesh.blocks().get(b).gid(), field, c, j, i);
            }
          }
        }
      }
    }
  }

  private void write(int ranks) {
    OutputMeshes.writeFinal(dir, ranks, OUT, (pin, comm) -> mesh(pin, comm), m -> fill(m));
  }

  /** The interior of field {@code field} (nj x ni cells, 2 ghosts) of the four blocks in order. */
  private static double[] expected(int field, int ncomp, int nj, int ni) {
    double[] v = new double[4 * ncomp * nj * ni];
    int n = 0;
    for (int gid = 0; gid < 4; gid++) {
      for (int c = 0; c < ncomp; c++) {
        for (int j = 0; j < nj; j++) {
          for (int i = 0; i < ni; i++) {
            v[n++] = value(gid, field, c, j + 2, i + 2);
          }
        }
      }
    }
    return v;
  }

  @Test
  void givenAnOutput_thenTheFineFieldHasTwiceTheBlocksCellsInParthenonsLayout()
      throws IOException {
    write(2);
    Path file = dir.resolve("om.out0.final.phdf");
    try (HdfFile h5 = new HdfFile(file)) {
      assertArrayEquals(new int[] {4, 1, 4, 8}, h5.getDatasetByPath("c").getDimensions());
      assertArrayEquals(new int[] {4, 2, 1, 8, 16}, h5.getDatasetByPath("f").getDimensions());
      assertArrayEquals(expected(0, 1, 4, 8), (double[]) h5.getDatasetByPath("c").getDataFlat());
      assertArrayEquals(expected(1, 2, 8, 16), (double[]) h5.getDatasetByPath("f").getDataFlat());
      assertEquals("Cell", h5.getDatasetByPath("f").getAttribute("TopologicalLocation").getData());
    }
    String xdmf = Files.readString(dir.resolve("om.out0.final.phdf.xdmf"));
    assertTrue(xdmf.contains("Name=\"c\""), xdmf);
    assertFalse(xdmf.contains("Name=\"f"), xdmf);
  }

  @Test
  void givenARestartWrittenOnTwoRanks_thenOneAndThreeRanksRestoreTheFineInteriorBitForBit() {
    write(2);
    Path file = dir.resolve("om.out1.final.rhdf");
    for (int ranks : new int[] {1, 3}) {
      InProcessRun.run(ranks, comm -> {
        try (RestartFile rst = RestartFile.open(file)) {
          Mesh mesh = mesh(ParameterInput.parse("r", rst.deck(), List.of()), comm);
          ArenaLayout layout = mesh.fields().layout();
          int inst = layout.dataInstance(1, 0);
          assertEquals(0.0, mesh.fields().data()[layout.index(inst, 0, 1, 0, 9, 17)],
              "a fresh mesh starts at zero, so the check below can fail");
          rst.restoreFields(mesh);
          for (int b = 0; b < mesh.blocks().size(); b++) {
            int gid = mesh.blocks().get(b).gid();
            for (int c = 0; c < 2; c++) {
              for (int j = 2; j <= 9; j++) {
                for (int i = 2; i <= 17; i++) {
                  assertEquals(Double.doubleToLongBits(value(gid, 1, c, j, i)),
                      Double.doubleToLongBits(mesh.fields().data()[layout.index(inst, b, c, 0,
                          j, i)]), "gid " + gid + " c " + c + " j " + j + " i " + i);
                }
              }
            }
          }
        }
      });
    }
  }
}
