package org.metope.driver;

import org.metope.mesh.InertBoundaryCommunication;

import org.metope.mesh.TestMeshes;

import org.metope.mesh.DriverError;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

class MeshInitializationTest {
  /** Records the calls a driver makes. */
  private static final class Recorder extends InertBoundaryCommunication {
    final List<String> calls;

    Recorder(List<String> calls) {
      this.calls = calls;
    }

    @Override
    public void setup(Mesh mesh) {
      calls.add("setup");
    }






    @Override
    public void fillGhosts(Mesh mesh, String container) {
      calls.add("fillGhosts " + container);
    }
  }

  @Test
  void givenAMesh_thenProblemThenPreCommunicationThenGhostsThenDerivedFields() {
    List<String> calls = new ArrayList<>();
    StateDescriptor pkg = TestMeshes.toyPackage(0.1);
    pkg.setPreCommFillDerived(md -> calls.add("preComm " + md.stageName()));
    pkg.setPreFillDerived(md -> calls.add("preFill"));
    pkg.setFillDerived(md -> calls.add("fill " + md.stageName()));
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(16, 8, ""));
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(pkg), List.of("base", "1"));
    MeshInitialization.initialize(mesh, (md, b) -> calls.add("generate " + md.block(b).gid()),
        new Recorder(calls));
    assertEquals(List.of("generate 0", "generate 1", "preComm base", "setup", "fillGhosts base",
        "preFill", "fill base"), calls);
  }

  @Test
  void givenMoreRanksThanBlocks_thenTheRunStopsWithOneLine() {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(8, 8, ""));
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), 2, 0);
    mesh.initializeFields(TestMeshes.packages(TestMeshes.toyPackage(0.1)), List.of("base"));
    DriverError e = assertThrows(DriverError.class, () -> MeshInitialization.initialize(mesh,
        (md, b) -> { }, new Recorder(new ArrayList<>())));
    assertEquals("too few mesh blocks: the mesh has 1 blocks for 2 ranks; every rank needs at"
        + " least one", e.getMessage());
  }
}
