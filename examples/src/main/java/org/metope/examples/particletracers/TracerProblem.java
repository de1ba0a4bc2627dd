package org.metope.examples.particletracers;

import java.util.SplittableRandom;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParFor;
import org.metope.mesh.view.SwarmPack;

/**
 * The start of Parthenon's particle_tracers: {@code advected = 1 + 0.5 sin(2 pi x / Lx)}, and in
 * each block {@code round(num_tracers * (block's share of the density's integral))} tracers drawn
 * from that density by rejection, ids {@code num_tracers * gid + slot}.
 *
 * <p>Parthenon draws with Kokkos' XorShift64 seeded by the gid; here {@link SplittableRandom}
 * seeded by the gid, so positions differ from Parthenon's while the counts per block, which the
 * density fixes, are the same; both are independent of the number of ranks.
 */
final class TracerProblem {
  private static final double MEAN = 1.0;
  private static final double AMPLITUDE = 0.5;

  private final int numTracers;

  TracerProblem(int numTracers) {
    this.numTracers = numTracers;
  }

  /** Fills block {@code b} of {@code md}. */
  void generate(MeshData md, int b) {
    if (md.block(b).mesh().ndim() > 2) {
      throw new org.metope.mesh.field.SetupError("particle_tracers supports 1D and 2D meshes"
          + " only, as Parthenon's example");
    }
    RegionSize mesh = md.block(b).mesh().meshSize();
    RegionSize block = md.block(b).region();
    double kwave = 2.0 * Math.PI / (mesh.xmax(0) - mesh.xmin(0));
    fillDensity(md, b, kwave);
    double inBlock = integral(block, kwave);
    double inMesh = integral(mesh, kwave);
    int count = (int) Math.round(numTracers * inBlock / inMesh);
    SwarmPack pack = SwarmPack.of(md, TracersPackages.SWARM);
    pack.swarm(b).addEmptyParticles(count);
    SplittableRandom random = new SplittableRandom(md.block(b).gid());
    int gid = md.block(b).gid();
    for (int p = 0; p < count; p++) {
      int n = pack.swarm(b).newSlot(p);
      double x;
      double value;
      do {
        x = block.xmin(0) + random.nextDouble() * (block.xmax(0) - block.xmin(0));
        value = MEAN + AMPLITUDE * Math.sin(2.0 * Math.PI * x);
      } while (value < random.nextDouble() * (MEAN + AMPLITUDE));
      pack.x().set(b, n, x);
      pack.y().set(b, n, block.xmin(1) + random.nextDouble() * (block.xmax(1) - block.xmin(1)));
      pack.z().set(b, n, block.xmin(2) + random.nextDouble() * (block.xmax(2) - block.xmin(2)));
      pack.integer("id").set(b, n, numTracers * gid + n);
    }
  }

  private static void fillDensity(MeshData md, int b, double kwave) {
    BlockView advected = BlockView.of(md, TracersPackages.ADVECTED, b);
    UniformCartesian coords = md.block(b).coords();
    ParFor.cells(b, b, IndexBox.of(md.block(b).cellBounds(), IndexDomain.INTERIOR),
        (blk, k, j, i) -> advected.set(0, k, j, i, MEAN + AMPLITUDE * Math.sin(kwave
            * coords.x1c(i))));
  }

  /** The density's integral over {@code region}, as Parthenon computes it. */
  private static double integral(RegionSize region, double kwave) {
    double n = MEAN * (region.xmax(0) - region.xmin(0))
        - AMPLITUDE / kwave * (Math.cos(kwave * region.xmax(0)) - Math.cos(kwave
            * region.xmin(0)));
    return n * (region.xmax(1) - region.xmin(1)) * (region.xmax(2) - region.xmin(2));
  }
}
