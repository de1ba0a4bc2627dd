package org.metope.bvals.conditions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.KernelBackends;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.FieldView;
import org.metope.tasking.TaskStatus;

/**
 * GIVEN a 2D mesh whose four faces are physical (reflecting and outflow on each axis), a scalar
 * field and a vector field, every cell set to seeded random values, THEN the device launch of the
 * conditions ({@link BoundaryConditionLaunch}, run on the poisoned resident emulation) writes the
 * host conditions' bits in every cell, the normal component of the vector changes sign under
 * reflection and the corners get the later face's values; without the launch (the fault that
 * skips it) the ghosts keep their old values.
 */
class BoundaryConditionLaunchTest {
  private static final String DECK = "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = reflecting\nox1_bc = outflow\nnx2 = 8\nx2min = 0\nx2max = 1\n"
      + "ix2_bc = outflow\nox2_bc = reflecting\nnx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\n";

  /** A fresh mesh of the deck with every cell of both fields seeded the same way. */
  private static MeshData[] mesh() {
    return mesh(false);
  }

  /**
   * The same, with {@code elements} also a face vector {@code b} (two components) and a node
   * field {@code n}.
   */
  private static MeshData[] mesh(boolean elements) {
    ParameterInput pin = ParameterInput.parse("bc.in", DECK, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin, List.of()),
        InProcessCluster.singleRank());
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addField("rho", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST).shape(2).build());
    pkg.addField("mom", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST, Metadata.VECTOR).shape(2).build());
    if (elements) {
      pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT,
          Metadata.FILL_GHOST, Metadata.VECTOR).shape(2).build());
      pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    }
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    comm.setup(mesh);
    MeshData[] parts = mesh.meshData("base").toArray(new MeshData[0]);
    SplittableRandom random = new SplittableRandom(16);
    for (MeshData md : parts) {
      for (int n = 0; n < md.data().length; n++) {
        md.data()[n] = random.nextDouble() - 0.5;
      }
    }
    return parts;
  }

  @Test
  void givenEveryFacePhysical_whenLaunchedOnTheDevice_thenTheHostConditionsBits() {
    MeshData[] host = mesh();
    MeshData[] device = mesh();
    MeshData[] untouched = mesh();
    BoundaryConditions conditions = new BoundaryConditions(false);
    int changed = 0;
    try (EmulatedDeviceBackend backend = EmulatedDeviceBackend.resident(Fault.NONE,
        new DeviceTrace(null), true)) {
      for (int p = 0; p < host.length; p++) {
        conditions.apply(host[p], false);
        assertEquals(TaskStatus.COMPLETE, conditions.task(device[p], false, backend).run());
        backend.acquireHost(device[p].data(), false);
        backend.releaseHost(device[p].data());
        assertArrayEquals(host[p].data(), device[p].data(), "partition " + p);
        for (int n = 0; n < host[p].data().length; n++) {
          changed += host[p].data()[n] != untouched[p].data()[n] ? 1 : 0;
        }
      }
    }
    // 4 blocks of 4 x 4 cells with 2 ghosts: each block has 2 physical faces whose slabs of
    // 2 x 8 cells overlap in a 2 x 2 corner, 28 ghosts, for 2 fields of 2 components.
    assertEquals(4 * 28 * 2 * 2, changed);
  }

  /**
   * Face and node fields: the launch writes the host conditions' bits, and on the reflecting inner
   * x1 face the x1 faces of a face vector change sign and its x2 faces do not (Parthenon's
   * vector_component of a face field is its element's direction), mirrored about the boundary
   * face as Parthenon's GenericBC mirrors every element: ghost {@code is - g} from {@code is + g -
   * 1}.
   */
  @Test
  void givenFaceAndNodeFields_whenLaunchedOnTheDevice_thenTheHostConditionsBits() {
    MeshData[] host = mesh(true);
    MeshData[] device = mesh(true);
    MeshData[] untouched = mesh(true);
    BoundaryConditions conditions = new BoundaryConditions(false);
    try (EmulatedDeviceBackend backend = EmulatedDeviceBackend.resident(Fault.NONE,
        new DeviceTrace(null), true)) {
      for (int p = 0; p < host.length; p++) {
        conditions.apply(host[p], false);
        assertEquals(TaskStatus.COMPLETE, conditions.task(device[p], false, backend).run());
        backend.acquireHost(device[p].data(), false);
        backend.releaseHost(device[p].data());
        assertArrayEquals(host[p].data(), device[p].data(), "partition " + p);
      }
    }
    MeshData md = host[0];
    MeshData before = untouched[0];
    FieldView b = FieldView.of(md, "b");
    FieldView was = FieldView.of(before, "b");
    int is = md.block(0).cellBounds().start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    int js = md.block(0).cellBounds().start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
    int checked = 0;
    for (int blk = 0; blk < md.numBlocks(); blk++) {
      if (md.block(blk).loc().lx1() != 0 || md.block(blk).loc().lx2() != 1) {
        continue;
      }
      for (int g = 1; g <= 2; g++) {
        for (int n = 0; n < 2; n++) {
          assertEquals(-was.get(TopologicalElement.F1, blk, n, 0, js + 1, is + g - 1),
              b.get(TopologicalElement.F1, blk, n, 0, js + 1, is - g));
          assertEquals(was.get(TopologicalElement.F2, blk, n, 0, js + 1, is + g - 1),
              b.get(TopologicalElement.F2, blk, n, 0, js + 1, is - g));
          checked++;
        }
      }
    }
    assertEquals(4, checked);
  }

  @Test
  void givenAReflectingFace_thenTheNormalComponentChangesSignAndTheOtherDoesNot() {
    MeshData md = mesh()[0];
    MeshData before = mesh()[0];
    StageLaunch launch = BoundaryConditionLaunch.build(md, false);
    launch.runOnHost(md.data(), 0.0, 0.0);
    int mom = md.state().fieldId("mom");
    int is = md.block(0).cellBounds().start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    int js = md.block(0).cellBounds().start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
    int checked = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      if (md.block(b).loc().lx1() != 0 || md.block(b).loc().lx2() != 1) {
        continue;
      }
      for (int g = 1; g <= 2; g++) {
        double mirror0 = before.data()[before.index(mom, b, 0, 0, js + 1, is + g - 1)];
        double mirror1 = before.data()[before.index(mom, b, 1, 0, js + 1, is + g - 1)];
        assertEquals(-mirror0, md.data()[md.index(mom, b, 0, 0, js + 1, is - g)]);
        assertEquals(mirror1, md.data()[md.index(mom, b, 1, 0, js + 1, is - g)]);
        checked++;
      }
    }
    assertEquals(2, checked);
  }

  @Test
  void givenTheLaunchSkipped_thenTheGhostsKeepTheirOldValues() {
    MeshData[] host = mesh();
    MeshData[] device = mesh();
    BoundaryConditions conditions = new BoundaryConditions(false);
    try (EmulatedDeviceBackend backend = EmulatedDeviceBackend.resident(
        Fault.NO_BOUNDARY_CONDITIONS, new DeviceTrace(null), true)) {
      conditions.apply(host[0], false);
      conditions.task(device[0], false, backend).run();
      backend.acquireHost(device[0].data(), false);
      backend.releaseHost(device[0].data());
    }
    int differ = 0;
    for (int n = 0; n < host[0].data().length; n++) {
      differ += host[0].data()[n] != device[0].data()[n] ? 1 : 0;
    }
    assertTrue(differ > 0, "skipping the launch changed nothing");
  }
}
