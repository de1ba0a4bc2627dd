package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * A restart file's particles come back in their blocks, and a particle the file holds outside its
 * block, or at a NaN position, is refused in one line naming the swarm, the particle and the
 * block. The files are written by Metope's own restart output from a mesh whose particle was put
 * there by the test (a sealed file cannot be edited).
 */
class SwarmRestartTest {
  @TempDir Path dir;

  private static final String RST = "<parthenon/output1>\nfile_type = rst\ndt = 0.25\n";

  private static Mesh mesh(ParameterInput pin, Communicator comm) {
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addSwarm("p", Metadata.of(Metadata.PROVIDES, Metadata.NONE, Metadata.INDEPENDENT));
    pkg.addSwarmValue("id", "p", Metadata.of(Metadata.INTEGER));
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    return mesh;
  }

  private static double[] position(Swarm swarm, int slot) {
    double[] x = new double[3];
    for (int axis = 0; axis < 3; axis++) {
      x[axis] = swarm.real(swarm.layout().variable(SwarmLayout.POSITIONS.get(axis))
          .firstComponent())[slot];
    }
    return x;
  }

  /**
   * Writes a restart file whose block gid 0 ({@code [-1, 0) x [0, 0.25)} of {@link
   * OutputMeshes#DECK}) holds one particle at {@code x}, then restores it into a new mesh and
   * returns the particle's position there.
   */
  private double[] roundTrip(double... x) {
    double[][] restored = new double[1][];
    InProcessRun.run(1, comm -> {
      ParameterInput pin = OutputMeshes.pin(RST);
      Mesh mesh = mesh(pin, comm);
      Swarm swarm = mesh.swarms().swarm(0, 0);
      swarm.addEmptyParticles(1);
      int slot = swarm.newSlot(0);
      for (int axis = 0; axis < 3; axis++) {
        swarm.real(swarm.layout().variable(SwarmLayout.POSITIONS.get(axis))
            .firstComponent())[slot] = x[axis];
      }
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.FINAL, () -> { });
      try (RestartFile rst = RestartFile.open(dir.resolve("om.out1.final.rhdf"))) {
        Mesh fresh = mesh(ParameterInput.parse("r", rst.deck(), List.of()), comm);
        rst.restoreSwarms(fresh);
        Swarm back = fresh.swarms().swarm(0, 0);
        assertEquals(1, back.numActive());
        restored[0] = position(back, 0);
      }
    });
    return restored[0];
  }

  private String refusal(double... x) {
    Throwable thrown = assertThrows(Throwable.class, () -> roundTrip(x));
    while (!(thrown instanceof InputError) && thrown.getCause() != null) {
      thrown = thrown.getCause();
    }
    assertTrue(thrown instanceof InputError, String.valueOf(thrown));
    String message = thrown.getMessage();
    assertEquals(1, message.lines().count(), message);
    return message;
  }

  @Test
  void givenAParticleInsideItsBlock_thenItComesBack() {
    assertArrayEquals(new double[] {-0.5, 0.1, 0.5}, roundTrip(-0.5, 0.1, 0.5), 0.0);
    // The lower bound is the block's, the upper is the next block's (the exchange's rule).
    assertArrayEquals(new double[] {-1.0, 0.0, 7.0}, roundTrip(-1.0, 0.0, 7.0), 0.0);
  }

  @Test
  void givenAParticleOutsideItsBlock_thenOneLineNamesParticleAndBlock() {
    String message = refusal(0.5, 0.1, 0.5);
    assertTrue(message.contains("cannot restore swarm p: particle 0 of block gid 0 is at"
        + " [0.5, 0.1, 0.5], outside the block [-1.0, 0.0) x [0.0, 0.25): expected finite"
        + " positions inside their blocks"), message);
    assertTrue(refusal(0.0, 0.1, 0.5).contains("is at [0.0, 0.1, 0.5], outside the block"));
  }

  @Test
  void givenANanPosition_thenOneLineNamesIt() {
    String message = refusal(-0.5, Double.NaN, 0.5);
    assertTrue(message.contains("particle 0 of block gid 0 is at [-0.5, NaN, 0.5], outside"),
        message);
  }
}
