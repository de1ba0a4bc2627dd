package org.metope.examples.advection;

import java.util.Locale;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.IndexBox;

/**
 * The initial state of the advection example (Parthenon's {@code ProblemGenerator}): every
 * component of every independent field, on the interior cells, takes the deck's profile,
 *
 * <ul>
 *   <li>{@code wave}: {@code 1 + amp sin(k_par x) vel}, {@code x} the position along the wave
 *       vector;
 *   <li>{@code smooth_gaussian}: {@code 1 + amp exp(-100 r^2)};
 *   <li>{@code hard_sphere}: 1 inside {@code r < 0.15}, 0 outside;
 *   <li>{@code block}: 0, except six cells of block 0 (gid 0) that get {@code advected = 10} and a
 *       velocity along one of the six axis directions, which needs {@code v_const = false} and a 3D
 *       mesh (cells outside the block's index space are skipped).
 * </ul>
 *
 * Positions are cell centres; {@code r^2 = x1^2 + x2^2 + x3^2} (the x3 centre of a 2D mesh is the
 * middle of its x3 range).
 *
 * <p>{@code sin} and {@code exp} are {@link StrictMath}'s, so every rank and thread computes the
 * same bits. They are within one ulp of glibc's, which Parthenon uses, but not always equal: a few
 * percent of the cells of a {@code wave} or {@code smooth_gaussian} start one ulp away from
 * Parthenon's (the runs then agree to about 1e-15); {@code hard_sphere} and {@code block} start
 * bit for bit equal.
 */
final class AdvectionProblem {
  /** The deck's profiles ({@link AdvectionPackage#PROFILES}), each named as in the deck. */
  enum Profile {
    WAVE, SMOOTH_GAUSSIAN, HARD_SPHERE, BLOCK;

    /** The profile a deck names, e.g. {@code hard_sphere}. */
    static Profile of(String deckName) {
      return valueOf(deckName.toUpperCase(Locale.ROOT));
    }
  }

  /** Radius of Parthenon's hard sphere. */
  private static final double SPHERE_RADIUS = 0.15;
  /** Parthenon's smooth Gaussian is {@code exp(-GAUSSIAN_STEEPNESS r^2)}. */
  private static final double GAUSSIAN_STEEPNESS = 100.0;

  private final Profile profile;
  private final double amp;
  private final double vel;
  private final double vx;
  private final double vy;
  private final double vz;
  private final double kPar;
  private final double cosA2;
  private final double cosA3;
  private final double sinA2;
  private final double sinA3;

  AdvectionProblem(Params params) {
    profile = Profile.of(params.getString("profile"));
    amp = params.getDouble("amp");
    vel = params.getDouble("vel");
    vx = params.getDouble("vx");
    vy = params.getDouble("vy");
    vz = params.getDouble("vz");
    kPar = params.getDouble("k_par");
    cosA2 = params.getDouble("cos_a2");
    cosA3 = params.getDouble("cos_a3");
    sinA2 = params.getDouble("sin_a2");
    sinA3 = params.getDouble("sin_a3");
  }

  /** Whether the profile is {@code block}, which has no reference solution. */
  boolean isBlockProfile() {
    return profile == Profile.BLOCK;
  }

  /** Sets block {@code b} of {@code md} (a partition of {@code base}). */
  void generate(MeshData md, int b) {
    MeshBlock block = md.block(b);
    UniformCartesian coords = block.coords();
    IndexBox cells = IndexBox.of(block.cellBounds(), IndexDomain.INTERIOR);
    for (FieldInfo field : md.state().fieldsWith(MetadataFlag.INDEPENDENT)) {
      if (!md.isAllocated(field.id(), b)) {
        continue;
      }
      BlockView q = BlockView.of(md, field.name(), b);
      for (int n = 0; n < q.numComponents(); n++) {
        for (int k = cells.k().s(); k <= cells.k().e(); k++) {
          for (int j = cells.j().s(); j <= cells.j().e(); j++) {
            for (int i = cells.i().s(); i <= cells.i().e(); i++) {
              q.set(n, k, j, i, value(coords, k, j, i));
            }
          }
        }
      }
    }
    if (profile == Profile.BLOCK && block.gid() == 0) {
      seedBlockProfile(md, b);
    }
  }

  /** The profile at the centre of cell {@code (k, j, i)}. */
  double value(UniformCartesian coords, int k, int j, int i) {
    return switch (profile) {
      case WAVE -> {
        double x = cosA2 * (coords.x1c(i) * cosA3 + coords.x2c(j) * sinA3)
            + coords.x3c(k) * sinA2;
        yield 1.0 + amp * StrictMath.sin(kPar * x) * vel;
      }
      case SMOOTH_GAUSSIAN ->
          1.0 + amp * StrictMath.exp(-GAUSSIAN_STEEPNESS * rsq(coords, k, j, i));
      case HARD_SPHERE -> rsq(coords, k, j, i) < SPHERE_RADIUS * SPHERE_RADIUS ? 1.0 : 0.0;
      case BLOCK -> 0.0;
    };
  }

  /** Squared distance of the centre of cell {@code (k, j, i)} from the origin. */
  private static double rsq(UniformCartesian coords, int k, int j, int i) {
    return coords.x1c(i) * coords.x1c(i) + coords.x2c(j) * coords.x2c(j)
        + coords.x3c(k) * coords.x3c(k);
  }

  /** Parthenon's six moving cells of the {@code block} profile (at k, j, i with ghosts). */
  private void seedBlockProfile(MeshData md, int b) {
    BlockView adv = BlockView.of(md, "advected", b);
    BlockView v = md.state().hasField("v") ? BlockView.of(md, "v", b) : null;
    int[][] cellsAndVelocity = {
        {4, 4, 4, 0, 1}, {4, 6, 4, 0, -1},
        {6, 4, 4, 1, 1}, {6, 6, 6, 1, -1},
        {4, 8, 8, 2, 1}, {4, 10, 8, 2, -1}};
    double[] speeds = {vx, vy, vz};
    IndexShape shape = md.block(b).cellBounds();
    for (int[] c : cellsAndVelocity) {
      if (c[0] >= shape.entireNcells(2) || c[1] >= shape.entireNcells(1)
          || c[2] >= shape.entireNcells(0)) {
        continue;
      }
      adv.set(0, c[0], c[1], c[2], 10.0);
      if (v != null) {
        v.set(c[3], c[0], c[1], c[2], c[4] * speeds[c[3]]);
      }
    }
  }
}
