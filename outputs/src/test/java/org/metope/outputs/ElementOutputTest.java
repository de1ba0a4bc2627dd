package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * Face, edge and node fields in HDF5 outputs and restart files, written as Parthenon's {@code
 * PHDF5Output} writes them (a face or edge field's elements lead, extents padded to the largest
 * element's, {@code TopologicalLocation} Face, Edge or Node): an output read back with jhdf holds
 * every written value of the storage where Parthenon's layout puts it, and a restart file
 * written on two ranks restores the written values bit for bit on one and three ranks.
 */
class ElementOutputTest {
  @TempDir Path dir;

  private static final String OUT = "<parthenon/output0>\nfile_type = hdf5\nvariables = b, e, n\n"
      + "<parthenon/output1>\nfile_type = rst\ndt = 1\n";

  private static Mesh mesh(ParameterInput pin, Communicator comm) {
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT).shape(2).build());
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT));
    return OutputMeshes.mesh(pin, comm, pkg, "base");
  }

  /** One plane of one block of one field. */
  private interface PlaneVisitor {
    void at(ArenaLayout layout, int inst, FieldInfo f, int b, int gid, int p);
  }

  /** Visits every plane (element and component) of every block of every field of {@code mesh}. */
  private static void eachPlane(Mesh mesh, PlaneVisitor visitor) {
    ArenaLayout layout = mesh.fields().layout();
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      int inst = layout.dataInstance(f.id(), 0);
      int planes = layout.numElements(inst) * layout.numComponents(inst);
      for (int b = 0; b < mesh.blocks().size(); b++) {
        for (int p = 0; p < planes; p++) {
          visitor.at(layout, inst, f, b, mesh.blocks().get(b).gid(), p);
        }
      }
    }
  }

  /** Every stored value of every field, planes included, is its own known value. */
  private static void fill(Mesh mesh) {
    eachPlane(mesh, (layout, inst, f, b, gid, p) -> {
      for (int j = 0; j < layout.nj(inst); j++) {
        for (int i = 0; i < layout.ni(inst); i++) {
          mesh.fields().data()[layout.index(inst, b, p, 0, j, i)] =
              OutputMeshes.value(gid, f.id(), p, 0, j, i);
        }
      }
    });
  }

  /** Writes both outputs of the filled mesh on {@code ranks} ranks, at the end of a run. */
  private void write(int ranks) {
    OutputMeshes.writeFinal(dir, ranks, OUT, (pin, comm) -> mesh(pin, comm), m -> fill(m));
  }

  /**
   * What the file must hold for field {@code field} with {@code planes} planes: per block, plane,
   * j and i of the interior, one past it along both axes (the padding of the largest element).
   */
  private static double[] expected(int field, int planes) {
    double[] v = new double[4 * planes * 5 * 9];
    int n = 0;
    for (int gid = 0; gid < 4; gid++) {
      for (int p = 0; p < planes; p++) {
        for (int j = 0; j < 5; j++) {
          for (int i = 0; i < 9; i++) {
            v[n++] = OutputMeshes.value(gid, field, p, 0, j + 2, i + 2);
          }
        }
      }
    }
    return v;
  }

  @Test
  void givenAnOutput_thenJhdfReadsParthenonsLayoutAndEveryWrittenValue() {
    write(2);
    try (HdfFile h5 = new HdfFile(dir.resolve("om.out0.final.phdf"))) {
      assertArrayEquals(new int[] {4, 3, 2, 1, 5, 9}, h5.getDatasetByPath("b").getDimensions());
      assertArrayEquals(new int[] {4, 3, 1, 5, 9}, h5.getDatasetByPath("e").getDimensions());
      assertArrayEquals(new int[] {4, 1, 5, 9}, h5.getDatasetByPath("n").getDimensions());
      assertArrayEquals(expected(0, 6), (double[]) h5.getDatasetByPath("b").getDataFlat());
      assertArrayEquals(expected(1, 3), (double[]) h5.getDatasetByPath("e").getDataFlat());
      assertArrayEquals(expected(2, 1), (double[]) h5.getDatasetByPath("n").getDataFlat());
      assertEquals("Face", h5.getDatasetByPath("b").getAttribute("TopologicalLocation").getData());
      assertEquals("Edge", h5.getDatasetByPath("e").getAttribute("TopologicalLocation").getData());
      assertEquals("Node", h5.getDatasetByPath("n").getAttribute("TopologicalLocation").getData());
      assertArrayEquals(new String[] {"b_0", "b_1", "e", "n"},
          (String[]) h5.getByPath("Info").getAttribute("ComponentNames").getData());
    }
  }

  @Test
  void givenARestartWrittenOnTwoRanks_thenOneAndThreeRanksRestoreEveryWrittenValueBitForBit() {
    write(2);
    Path file = dir.resolve("om.out1.final.rhdf");
    for (int ranks : new int[] {1, 3}) {
      InProcessRun.run(ranks, comm -> {
        try (RestartFile rst = RestartFile.open(file)) {
          Mesh mesh = mesh(ParameterInput.parse("r", rst.deck(), List.of()), comm);
          rst.restoreFields(mesh);
          assertWrittenValuesRestored(mesh);
        }
      });
    }
    Mesh unrestored = mesh(OutputMeshes.pin(OUT), InProcessCluster.singleRank());
    assertEquals(0.0, unrestored.fields().data()[unrestored.fields().layout().index(
        unrestored.fields().layout().dataInstance(0, 0), 0, 0, 0, 2, 2)],
        "a fresh mesh starts at zero, so the check above can fail");
  }

  private static void assertWrittenValuesRestored(Mesh mesh) {
    eachPlane(mesh, (layout, inst, f, b, gid, p) -> {
      for (int j = 2; j <= 6; j++) {
        for (int i = 2; i <= 10; i++) {
          double written = OutputMeshes.value(gid, f.id(), p, 0, j, i);
          assertEquals(Double.doubleToLongBits(written),
              Double.doubleToLongBits(mesh.fields().data()[layout.index(inst, b, p, 0, j, i)]),
              f.name() + " gid " + gid + " p " + p + " j " + j + " i " + i);
        }
      }
    });
  }
}
