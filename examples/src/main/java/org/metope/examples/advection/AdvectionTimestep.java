package org.metope.examples.advection;

import org.metope.mesh.field.DoubleParam;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.TimestepEstimator;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * The advection package's time step limit (Parthenon's {@code EstimateTimestepBlock}): {@code cfl}
 * times the smallest of {@code dx1 / |vx|}, {@code dx2 / |vy|}, {@code dx3 / |vz|} over the
 * non-zero velocity components, minimised over the blocks of a partition.
 *
 * <p>Parthenon takes that minimum over every interior cell of a block; on uniform Cartesian
 * coordinates every cell of a block gives the same three quotients, so one evaluation per block
 * gives the same bits.
 */
public final class AdvectionTimestep implements TimestepEstimator {
  private final DoubleParam cflParam;
  private final DoubleParam[] velocity;

  /** The estimator of the package whose parameters are {@code params}, resolved at set-up. */
  public AdvectionTimestep(Params params) {
    this.cflParam = params.doubleHandle("cfl");
    this.velocity = new DoubleParam[] {params.doubleHandle("vx"), params.doubleHandle("vy"),
        params.doubleHandle("vz")};
  }

  /** Reads the velocity parameters and the block spacing only. */
  @Override
  public boolean readsFields() {
    return false;
  }

  @Override
  public double estimate(MeshData md) {
    double cfl = cflParam.get();
    double vx = velocity[0].get();
    double vy = velocity[1].get();
    double vz = velocity[2].get();
    double[] dx = spacings(md);
    double dt = Double.MAX_VALUE;
    for (int b = 0; b < md.numBlocks(); b++) {
      double minDt = Double.MAX_VALUE;
      if (vx != 0.0) {
        minDt = Math.min(minDt, dx[3 * b] / Math.abs(vx));
      }
      if (vy != 0.0) {
        minDt = Math.min(minDt, dx[3 * b + 1] / Math.abs(vy));
      }
      if (vz != 0.0) {
        minDt = Math.min(minDt, dx[3 * b + 2] / Math.abs(vz));
      }
      dt = Math.min(dt, cfl * minDt);
    }
    return dt;
  }

  /** A partition's cell spacings, {@code dx[3 b + axis]} of its block {@code b}. */
  private record Spacings(double[] dx) {
    static Spacings of(MeshData md) {
      double[] dx = new double[3 * md.numBlocks()];
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian coords = md.block(b).coords();
        for (int axis = 0; axis < 3; axis++) {
          dx[3 * b + axis] = coords.dx(axis);
        }
      }
      return new Spacings(dx);
    }
  }

  /**
   * The cell spacings of {@code md}'s blocks, kept by the partition ({@link MeshData#keptView}):
   * a partition's blocks keep their coordinates (a remesh makes new partitions), and reading
   * them through each block every cycle was about 4 of the 190 main-thread samples of the
   * framework's per-cycle work (pinned, Parthenon's 2D adaptive deck).
   */
  private static double[] spacings(MeshData md) {
    return md.keptView(Spacings.class, Spacings::of).dx();
  }
}
