package org.metope.examples.particleleapfrog;

import java.util.List;
import org.metope.driver.EvolutionDriver;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.swarm.SwarmExchange;
import org.metope.mesh.view.SwarmPack;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * Parthenon's {@code ParticleDriver} of particle_leapfrog: each step pushes every partition's
 * particles by the clock's step, exchanges those that left their blocks, then defragments pools
 * whose packing efficiency is below 0.9 and estimates the next step. The task collections are
 * built once and reused every step.
 */
final class ParticleDriver extends EvolutionDriver {
  private static final double MIN_PACKING = 0.9;

  private final TaskThreadPool pool;
  private final LeapfrogPush[] pushes;
  private final TaskCollection update = new TaskCollection();
  private final TaskCollection finalization = new TaskCollection();

  ParticleDriver(ParameterInput pin, Mesh mesh, RunOptions options, TaskThreadPool pool) {
    super(pin, mesh, options);
    this.pool = pool;
    List<MeshData> partitions = mesh.meshData("base");
    pushes = new LeapfrogPush[partitions.size()];
    TaskRegion transport = update.addRegion(partitions.size());
    TaskRegion finish = finalization.addRegion(partitions.size());
    for (int p = 0; p < partitions.size(); p++) {
      MeshData md = partitions.get(p);
      LeapfrogPush push = new LeapfrogPush(md);
      pushes[p] = push;
      transport.get(p).addTask(TaskId.NONE, "TransportParticles", () -> {
        push.push(tm.dt());
        return TaskStatus.COMPLETE;
      });
      TaskList list = finish.get(p);
      TaskId defrag = list.addTask(TaskId.NONE, "Defrag", () -> defrag(md));
      addEstimateTimestep(defrag, list, md, partitions.size());
    }
    SwarmExchange exchange = new SwarmExchange(mesh, ParticlesPackage.SWARM);
    exchange.addTasks(update.addRegion(1).get(0), TaskId.NONE);
  }

  private static TaskStatus defrag(MeshData md) {
    SwarmPack pack = SwarmPack.of(md, ParticlesPackage.SWARM);
    for (int b = 0; b < pack.numBlocks(); b++) {
      Swarm swarm = pack.swarm(b);
      if (swarm.packingEfficiency() < MIN_PACKING) {
        swarm.defrag();
      }
    }
    return TaskStatus.COMPLETE;
  }

  @Override
  protected void step() {
    update.execute(pool);
    finalization.execute(pool);
  }
}
