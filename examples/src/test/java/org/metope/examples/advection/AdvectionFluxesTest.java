package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;

class AdvectionFluxesTest {
  /** q(k, j, i) = 100 k + 10 j + i + 1000 c: every cell value says where it is. */
  private static double q(int c, int k, int j, int i) {
    return 1000 * c + 100 * k + 10 * j + i;
  }

  private static void fill(MeshData md, int field, int components) {
    var cells = md.block(0).cellBounds();
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int c = 0; c < components; c++) {
        for (int k = 0; k < cells.entireNcells(2); k++) {
          for (int j = 0; j < cells.entireNcells(1); j++) {
            for (int i = 0; i < cells.entireNcells(0); i++) {
              md.data()[md.index(field, b, c, k, j, i)] = q(c, k, j, i);
            }
          }
        }
      }
    }
  }

  private static double flux(MeshData md, int field, int dir, int c, int k, int j, int i) {
    return md.data()[md.index(field, 0, c, k, j, i) - md.dataOffset(field, 0)
        + md.fluxOffset(field, dir, 0)];
  }

  @Test
  void givenConstantVelocity_thenEachFaceCarriesTheUpwindCellTimesTheVelocity() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 8, 8,
        "vx = 2.0\nvy = -0.5\nvz = 0.0\nvec_size = 2\n")));
    MeshData md = mesh.meshData("base").get(0);
    int f = md.state().fieldId("advected");
    fill(md, f, 2);
    mesh.packages().get(AdvectionPackage.NAME).calculateFluxes().calculateFluxes(md, null);
    for (int c = 0; c < 2; c++) {
      // x1: vx > 0, the donor is the cell below the face, faces 2 .. 10 of interior rows.
      assertEquals(q(c, 3, 4, 1) * 2.0, flux(md, f, 1, c, 3, 4, 2));
      assertEquals(q(c, 9, 9, 9) * 2.0, flux(md, f, 1, c, 9, 9, 10));
      // x2: vy < 0, the donor is the cell above the face.
      assertEquals(q(c, 5, 10, 3) * -0.5, flux(md, f, 2, c, 5, 10, 3));
      assertEquals(q(c, 2, 2, 7) * -0.5, flux(md, f, 2, c, 2, 2, 7));
      // x3: vz = 0 counts as not positive: the cell above, times zero.
      assertEquals(0.0, flux(md, f, 3, c, 10, 2, 2));
    }
    assertEquals(0.0, flux(md, f, 1, 0, 1, 4, 4), "no fluxes on ghost rows");
  }

  @Test
  void givenAVelocityField_thenFluxesTakeTheLeftStateWhenItMovesRightAndTheRightStateElse() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 8, 8,
        "v_const = false\n")));
    MeshData md = mesh.meshData("base").get(0);
    int q = md.state().fieldId("advected");
    int v = md.state().fieldId("v");
    fill(md, q, 1);
    double[] vx = {0, 0, 1.0, 1.0, -2.0, -2.0, 0.5, -1.0, 3.0, 0, 0, 0};
    for (int i = 0; i < 12; i++) {
      md.data()[md.index(v, 0, 0, 0, 0, i)] = vx[i];
    }
    mesh.packages().get(AdvectionPackage.NAME).calculateFluxes().calculateFluxes(md, null);
    assertEquals(2 * 1.0, flux(md, q, 1, 0, 0, 0, 3), "both move right: left state");
    assertEquals(3 * 1.0 + 4 * -2.0, flux(md, q, 1, 0, 0, 0, 4), "diverging: both");
    assertEquals(5 * -2.0, flux(md, q, 1, 0, 0, 0, 5), "both move left: right state");
    assertEquals(6 * 0.5 + 7 * -1.0, flux(md, q, 1, 0, 0, 0, 7), "converging: both");
    assertEquals(8 * 3.0, flux(md, q, 1, 0, 0, 0, 9), "the right cell rests: left state only");
  }

  /** A package whose {@code advected} has the given metadata, with every parameter but {@code omit}. */
  private static StateDescriptor pkg(Metadata advected, String omit) {
    StateDescriptor pkg = new StateDescriptor(AdvectionPackage.NAME);
    for (String key : new String[] {"vx", "vy", "vz"}) {
      if (!key.equals(omit)) {
        pkg.addParam(key, 1.0);
      }
    }
    pkg.addParam("v_const", true);
    pkg.addParam("num_vars", 1);
    pkg.addField("advected", advected);
    return pkg;
  }

  /** Negative control of the old behaviour, a field without fluxes left frozen: now refused. */
  @Test
  void givenAdvectedWithoutFluxes_thenTheKernelIsRefusedAtSetUp() {
    StateDescriptor pkg = pkg(Metadata.of(Metadata.CELL, Metadata.INDEPENDENT), "");
    Packages packages = new Packages();
    packages.add(pkg);
    SetupError e = assertThrows(SetupError.class,
        () -> new AdvectionFluxes(pkg.params()).resolve(packages.resolve()));
    assertEquals("field=advected has no flux storage: declare it with Metadata.CELL and"
        + " Metadata.WITH_FLUXES in package advection_package", e.getMessage());
  }

  @Test
  void givenAMissingParameter_thenTheKernelIsRefusedAtSetUp() {
    StateDescriptor pkg = pkg(Metadata.of(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES), "vy");
    Packages packages = new Packages();
    packages.add(pkg);
    SetupError e = assertThrows(SetupError.class, () -> new AdvectionFluxes(pkg.params()));
    assertEquals("package advection_package has no parameter vy (did you mean vx?); add it with"
        + " addParam at set-up (keys=[vx, vz, v_const, num_vars])", e.getMessage());
  }
}
