package org.metope.examples.particleleapfrog;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.view.ParFor;
import org.metope.mesh.view.ParticleKernel;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;

/**
 * One leapfrog step of a partition's particles (Parthenon's {@code TransportParticles}): drift
 * half a step, kick by the acceleration (zero: particles keep their trajectory), drift half a
 * step, with Parthenon's operation order. Made once per partition and reused every step.
 */
final class LeapfrogPush implements ParticleKernel {
  private static final double AX = 0.0;
  private static final double AY = 0.0;
  private static final double AZ = 0.0;

  private final SwarmPack pack;
  private final SwarmReal x;
  private final SwarmReal y;
  private final SwarmReal z;
  private final SwarmReal v;
  private double dt;

  LeapfrogPush(MeshData md) {
    this.pack = SwarmPack.of(md, ParticlesPackage.SWARM);
    boolean empty = pack.numBlocks() == 0;
    this.x = empty ? null : pack.x();
    this.y = empty ? null : pack.y();
    this.z = empty ? null : pack.z();
    this.v = empty ? null : pack.real("v");
  }

  /** Moves every particle of the partition by one step of {@code dt}. */
  void push(double dt) {
    this.dt = dt;
    ParFor.particles(pack, this);
  }

  @Override
  public void apply(int b, int n) {
    drift(b, n);
    v.add(b, 0, n, AX * dt);
    v.add(b, 1, n, AY * dt);
    v.add(b, 2, n, AZ * dt);
    drift(b, n);
  }

  private void drift(int b, int n) {
    x.add(b, n, v.get(b, 0, n) * 0.5 * dt);
    y.add(b, n, v.get(b, 1, n) * 0.5 * dt);
    z.add(b, n, v.get(b, 2, n) * 0.5 * dt);
  }
}
