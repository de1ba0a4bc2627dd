package org.metope.driver;

import org.metope.mesh.BoundaryCommunication;

import org.metope.mesh.DriverError;

import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;

/**
 * Brings a mesh whose fields were just allocated to the state the first step starts from
 * (Parthenon's {@code Mesh::Initialize} for a new run):
 *
 * <ol>
 *   <li>the problem generator on every block of {@code base};
 *   <li>every package's pre-communication fill-derived callback;
 *   <li>{@link BoundaryCommunication#setup} and {@link BoundaryCommunication#fillGhosts} of
 *       {@code base}, boundary conditions included;
 *   <li>every package's fill-derived callbacks (pre, fill, post);
 *   <li>on a mesh with {@linkplain Mesh#refinement() adaptive refinement}: every block tagged and
 *       the mesh remeshed; while that changed the number of blocks, all of the above again.
 * </ol>
 */
public final class MeshInitialization {
  private MeshInitialization() {}

  /**
   * Initialises {@code mesh} for a new run.
   *
   * @throws DriverError when some rank has no block (Parthenon needs at least one per rank)
   */
  public static void initialize(Mesh mesh, ProblemGenerator generator,
      BoundaryCommunication boundaries) {
    requireBlockPerRank(mesh);
    int initialBlocks = mesh.totalBlocks();
    do {
      generate(mesh, generator, boundaries);
    } while (mesh.refinement() != null
        && mesh.refinement().initialRefinementStep(initialBlocks,
            () -> releaseArenas(mesh, boundaries)));
  }

  /**
   * The old arenas are about to be replaced: a device-resident backend forgets them (their host
   * copies are current after the ghost fill) and keeps their device side for the new ones.
   */
  private static void releaseArenas(Mesh mesh, BoundaryCommunication boundaries) {
    for (MeshData md : mesh.meshData("base")) {
      boundaries.kernels().releaseArena(md.data());
    }
  }

  private static void generate(Mesh mesh, ProblemGenerator generator,
      BoundaryCommunication boundaries) {
    Packages packages = mesh.packages();
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        generator.generate(md, b);
      }
    }
    for (MeshData md : mesh.meshData("base")) {
      packages.preCommFillDerived(md);
    }
    boundaries.setup(mesh);
    boundaries.fillGhosts(mesh, "base");
    for (MeshData md : mesh.meshData("base")) {
      packages.fillDerived(md);
    }
  }

  /**
   * Brings a mesh whose base fields were just read from a restart file to the state the next step
   * starts from: {@link #initialize} without the problem generator and without start-up
   * refinement (Parthenon's {@code Mesh::Initialize} with {@code init_problem = false}).
   */
  public static void resume(Mesh mesh, BoundaryCommunication boundaries) {
    requireBlockPerRank(mesh);
    // No start-up refinement: the file holds the mesh the run had reached.
    generate(mesh, (md, b) -> { }, boundaries);
  }

  private static void requireBlockPerRank(Mesh mesh) {
    if (mesh.totalBlocks() < mesh.nranks()) {
      throw new DriverError("too few mesh blocks: the mesh has " + mesh.totalBlocks()
          + " blocks for " + mesh.nranks() + " ranks; every rank needs at least one");
    }
  }
}
