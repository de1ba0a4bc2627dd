package org.metope.mesh.swarm;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;

/**
 * Deposits a swarm's particles to a cell field (Parthenon's particles example, {@code
 * DepositParticles}): each particle adds its weight divided by the cell volume to the cell that
 * holds it, nearest-grid-point, so that the field's integral over the mesh is the particles'
 * total weight on every level. A particle touches only its own block's interior, so no ghost
 * exchange is needed ({@link CloudInCell} is the deposit that spills into neighbours).
 */
public final class Deposition {
  private Deposition() {}

  /**
   * Refuses a field with twice the block's resolution ({@code Metadata.FINE}): particles are
   * deposited into and interpolated from the block's own cells, whose indices a fine field's
   * would not match.
   *
   * @throws SetupError naming the field
   */
  static void requireBlockResolution(ResolvedState state, String field) {
    if (state.hasField(field) && state.field(field).metadata().isFine()) {
      throw new SetupError("field=" + field + " is FINE: particles deposit into and interpolate"
          + " from fields of the block's resolution");
    }
  }

  /**
   * Sets component 0 of cell field {@code field}'s interior on every block of {@code md} to the
   * density of real swarm variable {@code weight} of swarm {@code swarm}: zero, then {@code
   * weight / cellVolume} added per particle, particles in slot order.
   *
   * @throws IllegalStateException for a particle outside its block (exchange the swarm first)
   */
  public static void nearestGridPoint(MeshData md, String swarm, String weight, String field) {
    requireBlockResolution(md.state(), field);
    SwarmPack pack = SwarmPack.of(md, swarm);
    if (pack.numBlocks() == 0) {
      return;
    }
    SwarmReal[] x = {pack.x(), pack.y(), pack.z()};
    SwarmReal w = pack.real(weight);
    int[] cell = new int[3];
    int[] nx = new int[3];
    for (int b = 0; b < pack.numBlocks(); b++) {
      BlockView f = BlockView.of(md, field, b);
      UniformCartesian coords = md.block(b).coords();
      for (int axis = 0; axis < 3; axis++) {
        nx[axis] = md.block(b).cellBounds().interiorNcells(axis);
      }
      zeroInterior(f, coords, nx);
      double perVolume = 1.0 / coords.cellVolume();
      for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
        if (!pack.isActive(b, n)) {
          continue;
        }
        for (int axis = 0; axis < 3; axis++) {
          cell[axis] = cellOf(coords, axis, nx[axis], x[axis].get(b, n), md, b);
        }
        f.set(0, cell[2], cell[1], cell[0],
            f.get(0, cell[2], cell[1], cell[0]) + w.get(b, n) * perVolume);
      }
    }
  }

  /** The index of the interior cell along {@code axis} holding {@code position}. */
  private static int cellOf(UniformCartesian coords, int axis, int nx, double position,
      MeshData md, int b) {
    int start = coords.startIndex(axis);
    double lower = coords.xf(axis, start);
    double upper = coords.xf(axis, start + nx);
    if (nx == 1 && start == 0) {
      return 0;
    }
    if (!(position >= lower && position < upper)) {
      throw new IllegalStateException("particle at x" + (axis + 1) + "=" + position
          + " is outside block gid=" + md.block(b).gid() + " [" + lower + ", " + upper
          + "): exchange the swarm before depositing");
    }
    int offset = (int) Math.floor((position - lower) / coords.dx(axis));
    return start + Math.min(nx - 1, offset);
  }

  static void zeroInterior(BlockView f, UniformCartesian coords, int[] nx) {
    int is = coords.startIndex(0);
    int js = coords.startIndex(1);
    int ks = coords.startIndex(2);
    for (int k = ks; k < ks + nx[2]; k++) {
      for (int j = js; j < js + nx[1]; j++) {
        for (int i = is; i < is + nx[0]; i++) {
          f.set(0, k, j, i, 0.0);
        }
      }
    }
  }
}
