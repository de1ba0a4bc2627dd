package org.metope.examples.particleleapfrog;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.view.SwarmInt;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;

/**
 * The start of Parthenon's particle_leapfrog: 14 test particles at fixed positions and velocities
 * (along each axis, against each, and along the eight diagonals), each made in the block whose
 * half-open bounds hold it, with id its row number and {@code vv = v v^T}; none when the
 * package's {@code disable} is set.
 */
final class LeapfrogProblem {
  /** Each particle's x, y, z, vx, vy, vz, as in Parthenon's {@code particles_ic}. */
  private static final double[][] INITIAL = {
      {-0.1, 0.2, 0.3, 1.0, 0.0, 0.0},
      {0.4, -0.1, 0.3, 0.0, 1.0, 0.0},
      {-0.1, 0.3, 0.2, 0.0, 0.0, 0.5},
      {0.0, 0.0, 0.0, -1.0, 0.0, 0.0},
      {0.0, 0.0, 0.0, 0.0, -1.0, 0.0},
      {0.0, 0.0, 0.0, 0.0, 0.0, -1.0},
      {0.0, 0.0, 0.0, 1.0, 1.0, 1.0},
      {0.0, 0.0, 0.0, -1.0, 1.0, 1.0},
      {0.0, 0.0, 0.0, 1.0, -1.0, 1.0},
      {0.0, 0.0, 0.0, 1.0, 1.0, -1.0},
      {0.0, 0.0, 0.0, -1.0, -1.0, 1.0},
      {0.0, 0.0, 0.0, 1.0, -1.0, -1.0},
      {0.0, 0.0, 0.0, -1.0, 1.0, -1.0},
      {0.0, 0.0, 0.0, -1.0, -1.0, -1.0},
  };

  private final boolean disabled;

  LeapfrogProblem(boolean disabled) {
    this.disabled = disabled;
  }

  /** Makes block {@code b}'s particles. */
  void generate(MeshData md, int b) {
    if (disabled) {
      return;
    }
    RegionSize region = md.block(b).region();
    int count = 0;
    int[] rows = new int[INITIAL.length];
    for (int m = 0; m < INITIAL.length; m++) {
      if (inside(region, INITIAL[m])) {
        rows[count++] = m;
      }
    }
    SwarmPack pack = SwarmPack.of(md, ParticlesPackage.SWARM);
    pack.swarm(b).addEmptyParticles(count);
    SwarmInt id = pack.integer("id");
    SwarmReal v = pack.real("v");
    SwarmReal vv = pack.real("vv");
    SwarmReal[] x = {pack.x(), pack.y(), pack.z()};
    for (int i = 0; i < count; i++) {
      int n = pack.swarm(b).newSlot(i);
      double[] row = INITIAL[rows[i]];
      id.set(b, n, rows[i]);
      for (int axis = 0; axis < 3; axis++) {
        x[axis].set(b, n, row[axis]);
        v.set(b, axis, n, row[3 + axis]);
      }
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
          vv.set(b, 3 * r + c, n, row[3 + r] * row[3 + c]);
        }
      }
    }
  }

  private static boolean inside(RegionSize region, double[] row) {
    for (int axis = 0; axis < 3; axis++) {
      if (!(row[axis] >= region.xmin(axis) && row[axis] < region.xmax(axis))) {
        return false;
      }
    }
    return true;
  }
}
