package org.metope.examples.particletracers;

import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.swarm.SwarmExchange;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.SwarmPack;
import org.metope.mesh.view.SwarmReal;
import org.metope.tasking.TaskStatus;

/**
 * The tracers' part of a step of Parthenon's particle_tracers (its last stage's {@code
 * AdvectTracers}, swarm exchange, {@code DepositTracers} and {@code Defrag}), after the fluid's
 * update: every tracer moves by the background velocity times the step, tracers that left their
 * block move to their new one, {@code tracer_deposition} becomes the number of tracers per cell,
 * and pools less than 90 % full are defragmented. The views are made once per partition list
 * (again only after a remesh), so a step allocates nothing.
 */
final class TracerStep {
  private static final double MIN_PACKING = 0.9;

  private final double[] velocity;
  private final SwarmExchange exchange;
  private double dt;
  /** The partitions the views below were made for. */
  private List<MeshData> partitions;
  private SwarmPack[] packs;
  private BlockView[][] deposits;

  TracerStep(Mesh mesh, double vx, double vy, double vz) {
    this.velocity = new double[] {vx, vy, vz};
    this.exchange = new SwarmExchange(mesh, TracersPackages.SWARM);
  }

  /** Before the step: remembers its size (the step then estimates the next one). */
  void before(Mesh mesh, ParameterInput pin, SimTime tm) {
    dt = tm.dt();
  }

  /** After the fluid's step: moves, exchanges, deposits and defragments the tracers. */
  void after(Mesh mesh, ParameterInput pin, SimTime tm) {
    views(mesh.meshData("base"));
    for (SwarmPack pack : packs) {
      advect(pack);
    }
    exchange.send();
    while (exchange.receive() != TaskStatus.COMPLETE) {
      Thread.onSpinWait();
    }
    for (int p = 0; p < packs.length; p++) {
      MeshData md = partitions.get(p);
      for (int b = 0; b < md.numBlocks(); b++) {
        deposit(md, b, packs[p], deposits[p][b]);
        Swarm swarm = packs[p].swarm(b);
        if (swarm.packingEfficiency() < MIN_PACKING) {
          swarm.defrag();
        }
      }
    }
  }

  private void views(List<MeshData> current) {
    if (current == partitions) {
      return;
    }
    partitions = current;
    packs = new SwarmPack[current.size()];
    deposits = new BlockView[current.size()][];
    for (int p = 0; p < current.size(); p++) {
      MeshData md = current.get(p);
      packs[p] = SwarmPack.of(md, TracersPackages.SWARM);
      deposits[p] = new BlockView[md.numBlocks()];
      for (int b = 0; b < md.numBlocks(); b++) {
        deposits[p][b] = BlockView.of(md, TracersPackages.DEPOSITION, b);
      }
    }
  }

  private void advect(SwarmPack pack) {
    SwarmReal x = pack.x();
    SwarmReal y = pack.y();
    SwarmReal z = pack.z();
    for (int b = 0; b < pack.numBlocks(); b++) {
      for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
        if (pack.isActive(b, n)) {
          x.add(b, n, velocity[0] * dt);
          y.add(b, n, velocity[1] * dt);
          z.add(b, n, velocity[2] * dt);
        }
      }
    }
  }

  /** Parthenon's {@code DepositTracers}: one per tracer in the cell holding it. */
  private static void deposit(MeshData md, int b, SwarmPack pack, BlockView dep) {
    IndexShape cells = md.block(b).cellBounds();
    IndexRange ib = cells.boundsI(IndexDomain.INTERIOR);
    IndexRange jb = cells.boundsJ(IndexDomain.INTERIOR);
    IndexRange kb = cells.boundsK(IndexDomain.INTERIOR);
    for (int k = kb.s(); k <= kb.e(); k++) {
      for (int j = jb.s(); j <= jb.e(); j++) {
        for (int i = ib.s(); i <= ib.e(); i++) {
          dep.set(0, k, j, i, 0.0);
        }
      }
    }
    UniformCartesian coords = md.block(b).coords();
    int ndim = md.block(b).mesh().ndim();
    for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
      if (!pack.isActive(b, n)) {
        continue;
      }
      int i = cell(coords, 0, pack.x().get(b, n), ib.s());
      int j = ndim > 1 ? cell(coords, 1, pack.y().get(b, n), jb.s()) : 0;
      int k = ndim > 2 ? cell(coords, 2, pack.z().get(b, n), kb.s()) : 0;
      if (i < ib.s() || i > ib.e() || j < jb.s() || j > jb.e() || k < kb.s() || k > kb.e()) {
        throw new IllegalStateException("tracer outside its block gid=" + md.block(b).gid()
            + " during deposition");
      }
      dep.set(0, k, j, i, dep.get(0, k, j, i) + 1.0);
    }
  }

  private static int cell(UniformCartesian coords, int axis, double x, int start) {
    return (int) Math.floor((x - coords.xf(axis, start)) / coords.dx(axis)) + start;
  }
}
