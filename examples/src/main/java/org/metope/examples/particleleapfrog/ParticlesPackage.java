package org.metope.examples.particleleapfrog;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;

/**
 * Parthenon's {@code particles_package} of {@code example/particle_leapfrog}: swarm {@code
 * my_particles} with an integer {@code id}, a velocity vector {@code v} of 3 and the tensor {@code
 * vv} of 3x3; the time step is {@code cfl} times the smallest time a particle takes to cross the
 * smallest cell width of its block.
 */
public final class ParticlesPackage {
  /** The package's label, as Parthenon names it. */
  public static final String NAME = "particles_package";
  /** The deck block of the package's keys. */
  public static final String BLOCK = "Particles";
  /** The swarm's name. */
  public static final String SWARM = "my_particles";

  private ParticlesPackage() {}

  /**
   * The package, reading {@code <Particles> cfl} (default 0.3) and {@code disable} (default
   * false: the problem generator then makes no particle).
   */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    double cfl = pin.getOrAddReal(BLOCK, "cfl", 0.3);
    pkg.addParam("cfl", cfl);
    // Parthenon's problem generator reads disable from the deck: not written to outputs.
    pkg.addUnwrittenParam("disable", pin.getOrAddBoolean(BLOCK, "disable", false));
    pkg.addSwarm(SWARM, Metadata.of(Metadata.PROVIDES, Metadata.NONE, Metadata.INDEPENDENT));
    pkg.addSwarmValue("id", SWARM, Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", SWARM, Metadata.builder(Metadata.REAL, Metadata.VECTOR).shape(3)
        .build());
    pkg.addSwarmValue("vv", SWARM, Metadata.builder(Metadata.REAL).shape(3, 3).build());
    pkg.setEstimateTimestep(md -> cfl * smallestCrossingTime(md));
    return pkg;
  }

  /**
   * The smallest {@code dx / |v|} over the particles of the partition, {@code dx} the smallest
   * cell width of the particle's block; particles at rest do not count (Parthenon's {@code
   * EstimateTimestepBlock}).
   */
  static double smallestCrossingTime(MeshData md) {
    SwarmPack pack = SwarmPack.of(md, SWARM);
    double smallest = Double.MAX_VALUE;
    if (pack.numBlocks() == 0) {
      return smallest;
    }
    SwarmReal v = pack.real("v");
    for (int b = 0; b < pack.numBlocks(); b++) {
      UniformCartesian coords = md.block(b).coords();
      double dx = Math.min(coords.dx(0), Math.min(coords.dx(1), coords.dx(2)));
      for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
        if (pack.isActive(b, n)) {
          double vx = v.get(b, 0, n);
          double vy = v.get(b, 1, n);
          double vz = v.get(b, 2, n);
          double speed = Math.sqrt(vx * vx + vy * vy + vz * vz);
          if (speed != 0.0) {
            smallest = Math.min(smallest, dx / speed);
          }
        }
      }
    }
    return smallest;
  }
}
