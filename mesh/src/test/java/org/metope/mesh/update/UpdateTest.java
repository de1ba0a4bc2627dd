package org.metope.mesh.update;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

class UpdateTest {
  /**
   * A mesh of {@code ndim} dimensions, 2 blocks along x1, with fields u (3 components; {@code
   * FINE} when {@code fine}) and w.
   */
  private static Mesh mesh(int ndim, boolean fine) {
    StateDescriptor pkg = new StateDescriptor("p");
    Metadata.Builder u = fine
        ? Metadata.builder(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT,
            Metadata.WITH_FLUXES)
        : Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.WITH_FLUXES);
    pkg.addField("u", u.shape(3).build());
    pkg.addField("w", Metadata.of(Metadata.CELL, Metadata.DERIVED));
    return mesh(ndim, pkg);
  }

  /**
   * A mesh of {@code ndim} dimensions, 2 blocks along x1, with the fields of {@code pkg} in
   * containers {@code base} and {@code dudt}.
   */
  static Mesh mesh(int ndim, StateDescriptor pkg) {
    String deck = "<parthenon/mesh>\nnx1 = 16\nx1min = 0\nx1max = 2\nix1_bc = periodic\n"
        + "ox1_bc = periodic\nnx2 = " + (ndim > 1 ? 6 : 1) + "\nx2min = 0\nx2max = 3\n"
        + "ix2_bc = periodic\nox2_bc = periodic\nnx3 = " + (ndim > 2 ? 4 : 1)
        + "\nx3min = 0\nx3max = 0.5\nix3_bc = periodic\nox3_bc = periodic\n"
        + "<parthenon/meshblock>\nnx1 = 8\n";
    ParameterInput pin = ParameterInput.parse("t.in", deck, List.of());
    Packages packages = new Packages();
    packages.add(pkg);
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), InProcessCluster.singleRank());
    mesh.initializeFields(packages, List.of("base", "dudt"));
    return mesh;
  }

  /**
   * With fluxes linear in the face position, F_d = c_d (l + 1) x_d, the divergence is exactly
   * the sum of the slopes: dudt = -(l + 1)(c_1 + c_2 + c_3) on every interior cell. A {@code
   * FINE} field's are its own cells and widths: with the block's (coarse) bounds half its interior
   * along each axis would stay 0, with the block's widths every slope would be halved.
   */
  @ParameterizedTest
  @CsvSource({"1, false", "2, false", "3, false", "1, true", "2, true", "3, true"})
  void givenLinearFluxes_thenTheDivergenceIsTheSumOfTheirSlopesOnInteriorCellsOnly(int ndim,
      boolean fine) {
    Mesh mesh = mesh(ndim, fine);
    MeshData in = mesh.meshData("base").get(0);
    MeshData dudt = mesh.meshData("dudt").get(0);
    int u = in.state().fieldId("u");
    double[] slope = {1.5, -0.25, 4.0};
    double[] a = in.data();
    for (int b = 0; b < in.numBlocks(); b++) {
      UniformCartesian x = fine ? in.block(b).fineCoords() : in.block(b).coords();
      IndexShape cells = fine ? in.block(b).fineCellBounds() : in.block(b).cellBounds();
      for (int d = 1; d <= ndim; d++) {
        int off = in.fluxOffset(u, d, b);
        for (int l = 0; l < 3; l++) {
          for (int k = 0; k < cells.entireNcells(2); k++) {
            for (int j = 0; j < cells.entireNcells(1); j++) {
              for (int i = 0; i < cells.entireNcells(0); i++) {
                int idx = in.index(u, b, l, k, j, i) - in.dataOffset(u, b) + off;
                int face = d == 1 ? i : d == 2 ? j : k;
                a[idx] = slope[d - 1] * (l + 1) * x.xf(d - 1, face);
              }
            }
          }
        }
      }
    }
    Update.fluxDivergence(in, dudt, Update.fieldIds(in.state(), MetadataFlag.WITH_FLUXES));

    double expectedSum = 0;
    for (int d = 0; d < ndim; d++) {
      expectedSum += slope[d];
    }
    int interior = 0;
    for (int b = 0; b < dudt.numBlocks(); b++) {
      IndexShape cells = fine ? dudt.block(b).fineCellBounds() : dudt.block(b).cellBounds();
      for (int l = 0; l < 3; l++) {
        for (int k = 0; k < cells.entireNcells(2); k++) {
          for (int j = 0; j < cells.entireNcells(1); j++) {
            for (int i = 0; i < cells.entireNcells(0); i++) {
              boolean inside = inside(cells, 0, i) && inside(cells, 1, j) && inside(cells, 2, k);
              double v = a[dudt.index(u, b, l, k, j, i)];
              if (inside) {
                assertEquals(-(l + 1) * expectedSum, v, 1e-12 * (l + 1) * 8);
                interior++;
              } else {
                assertEquals(0.0, v, "ghost cells are not written");
              }
            }
          }
        }
      }
    }
    int per = fine ? 2 : 1;
    assertEquals(2 * 3 * 8 * per * (ndim > 1 ? 6 * per : 1) * (ndim > 2 ? 4 * per : 1),
        interior);
  }

  private static boolean inside(IndexShape cells, int axis, int index) {
    return !cells.isActive(axis)
        || (index >= cells.nghost() && index < cells.nghost() + cells.interiorNcells(axis));
  }

  @Test
  void givenTwoContainers_thenWeightedSumsCoverGhostsAndOnlyTheSelectedFields() {
    Mesh mesh = mesh(2, false);
    MeshData base = mesh.meshData("base").get(0);
    MeshData other = mesh.meshData("dudt").get(0);
    int u = base.state().fieldId("u");
    int w = base.state().fieldId("w");
    double[] a = base.data();
    int length = base.layout().blockLength(base.layout().dataInstance(u, 0));
    for (int b = 0; b < 2; b++) {
      for (int n = 0; n < length; n++) {
        a[base.dataOffset(u, b) + n] = n;
        a[other.dataOffset(u, b) + n] = 1000 + n;
      }
      a[base.dataOffset(w, b)] = 7.0;
    }
    int[] independent = Update.fieldIds(base.state(), MetadataFlag.INDEPENDENT);
    assertArrayEquals(new int[] {u}, independent);

    Update.averageData(independent, base, other, 0.25);
    for (int n = 0; n < length; n++) {
      assertEquals(0.25 * n + 0.75 * (1000 + n), a[base.dataOffset(u, 1) + n]);
    }
    Update.updateData(independent, other, base, 0.5, other);
    for (int n = 0; n < length; n++) {
      double avg = 0.25 * n + 0.75 * (1000 + n);
      assertEquals((1000 + n) + 0.5 * avg, a[other.dataOffset(u, 0) + n]);
    }
    assertEquals(7.0, a[base.dataOffset(w, 0)], "fields not selected are untouched");
  }
}
