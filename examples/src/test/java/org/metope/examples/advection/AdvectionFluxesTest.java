package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.DeviceKernel;
import org.metope.mesh.view.PackDescriptor;

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

  /** A NaN payload no flux computes: the launches' writes are the values that lose it. */
  private static final double UNWRITTEN = Double.longBitsToDouble(0x7ff8_0000_0bad_f00dL);

  /**
   * Random cells (positive, negative, zero and signed zero), every flux {@link #UNWRITTEN}; runs
   * the host loops and then, from the same start, {@code launches}, and returns {writes,
   * differing}: the values the launches wrote and those of them whose bits differ from the host's.
   */
  private static int[] compare(MeshData md, Random random, StageLaunch... launches) {
    double[] a = md.data();
    for (int n = 0; n < a.length; n++) {
      a[n] = random.nextInt(4) == 0 ? (random.nextBoolean() ? 0.0 : -0.0) : random.nextGaussian();
    }
    for (String name : new String[] {"advected", "v"}) {
      if (md.state().hasField(name)) {
        int f = md.state().fieldId(name);
        int inst = md.layout().dataInstance(f, md.container());
        int size = md.layout().numComponents(inst) * md.layout().componentStride(inst);
        for (int b = 0; b < md.numBlocks(); b++) {
          for (int dir = 1; dir <= md.layout().fluxDirections(); dir++) {
            int from = md.fluxOffset(f, dir, b);
            Arrays.fill(a, from, from + size, UNWRITTEN);
          }
        }
      }
    }
    double[] start = a.clone();
    md.block(0).mesh().packages().get(AdvectionPackage.NAME).calculateFluxes()
        .calculateFluxes(md, null);
    double[] host = a.clone();
    System.arraycopy(start, 0, a, 0, a.length);
    for (StageLaunch launch : launches) {
      launch.runOnHost(a, 0.0, 0.0);
    }
    int writes = 0;
    int differing = 0;
    for (int n = 0; n < a.length; n++) {
      long device = Double.doubleToRawLongBits(a[n]);
      if (device != Double.doubleToRawLongBits(start[n])) {
        writes++;
        differing += device != Double.doubleToRawLongBits(host[n]) ? 1 : 0;
      }
    }
    return new int[] {writes, differing};
  }

  /** Interior faces of every block and direction of {@code md}, times {@code components}. */
  private static int interiorFaces(MeshData md, int components) {
    IndexShape cells = md.block(0).cellBounds();
    int faces = 0;
    for (int dir = 1; dir <= md.layout().fluxDirections(); dir++) {
      int product = 1;
      for (int axis = 0; axis < 3; axis++) {
        product *= cells.ncells(axis, IndexDomain.INTERIOR, TopologicalElement.CC)
            + (axis == dir - 1 ? 1 : 0);
      }
      faces += product;
    }
    return faces * components * md.numBlocks();
  }

  private static StageLaunch[] deviceLaunches(MeshData md) {
    return md.block(0).mesh().packages().get(AdvectionPackage.NAME).calculateFluxes()
        .fluxLaunches(md, null).toArray(new StageLaunch[0]);
  }

  @Test
  void givenConstantVelocities_thenTheDeviceKernelsWriteTheHostBitsOnEveryInteriorFace() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 8, 4,
        "vx = 2.0\nvy = -0.5\nvz = 0.0\nvec_size = 2\n")));
    MeshData md = mesh.meshData("base").get(0);
    int[] result = compare(md, new Random(3), deviceLaunches(md));
    assertEquals(0, result[1], "fluxes with other bits");
    assertEquals(interiorFaces(md, 2), result[0], "fluxes written");
  }

  @Test
  void givenAVelocityField_thenTheDeviceKernelsWriteTheHostBitsOnEveryInteriorFace() {
    for (int ndim = 2; ndim <= 3; ndim++) {
      Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(ndim, 8, 4,
          "v_const = false\nvec_size = 2\n")));
      MeshData md = mesh.meshData("base").get(0);
      int[] result = compare(md, new Random(ndim), deviceLaunches(md));
      assertEquals(0, result[1], ndim + "D: fluxes with other bits");
      assertEquals(interiorFaces(md, 2 + 3), result[0], ndim + "D: fluxes written");
    }
  }

  /** The downwind cell instead of the donor, what a swapped {@code below}/{@code get} writes. */
  private static void downwindFace(double[] a, int[] t, int at, double[] r, int rat, int k,
      int j, int i) {
    final double vel = DevicePack.real(r, rat, 0);
    for (int n = 0; n < DevicePack.numVars(t, at); n++) {
      final double cell = vel > 0.0 ? DevicePack.get(a, t, at, n, k, j, i)
          : DevicePack.below(a, t, at, n, k, j, i);
      DevicePack.setFlux(a, t, at, n, k, j, i, cell * vel);
    }
  }

  /** Negative control: the comparison sees a body that takes the wrong cell along x1. */
  @Test
  void givenADownwindBody_thenTheComparisonFindsItsFaces() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 8, 4,
        "vx = 2.0\nvy = -0.5\nvz = 0.0\nvec_size = 2\n")));
    MeshData md = mesh.meshData("base").get(0);
    StageLaunch[] launches = deviceLaunches(md);
    launches[0] = DeviceKernel.faces(AdvectionFluxesTest::downwindFace,
        PackDescriptor.of(md.state(), "advected").withFluxes(), 1, 1, (m, b, n) -> 2.0)
        .launch(md);
    int[] result = compare(md, new Random(3), launches);
    assertTrue(result[1] > interiorFaces(md, 2) / 4, "differing: " + result[1]);
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
