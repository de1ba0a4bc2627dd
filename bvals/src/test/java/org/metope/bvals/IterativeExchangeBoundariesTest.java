package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.BoundaryCommunication.PhysicalBoundaries;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.RegionalConvergence;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;

/**
 * GIVEN Poisson's equation {@code lap u = 1} on an 8x8 grid of 4x4 blocks whose deck says {@code
 * outflow} on every face (Parthenon's {@code poisson} deck), solved by Jacobi sweeps with a ghost
 * exchange inside the iterative group, THEN with the default exchange ({@link
 * PhysicalBoundaries#KEEP}) the ghosts on the domain boundary keep their initial zeros, the solve
 * converges, and the converged values satisfy the five-point equation with those zero ghosts in
 * every cell; applying {@code outflow} every iteration ({@link PhysicalBoundaries#APPLY}, the
 * negative control) makes it a Neumann problem with a source of non-zero total, which has no
 * solution: the group runs into its iteration limit, which it reports instead of failing.
 */
class IterativeExchangeBoundariesTest {
  private static final int LIMIT = 4000;
  private static final double TOLERANCE = 1e-12;

  private static final String DECK = "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = outflow\nox1_bc = outflow\nnx2 = 8\nx2min = 0\nx2max = 1\n"
      + "ix2_bc = outflow\nox2_bc = outflow\nnx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\n";

  /** What one rank's solve ended with. */
  private record Result(boolean limitReached, int iterations, double worstResidual,
      double worstBoundaryGhost) {}

  private static Result solve(Communicator world, PhysicalBoundaries physical) {
    ParameterInput pin = ParameterInput.parse("poisson.in", DECK, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    StateDescriptor pkg = new StateDescriptor("poisson");
    pkg.addField("u", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    comm.setup(mesh);
    double h = 1.0 / 8;

    List<MeshData> parts = mesh.meshData("base");
    RegionalConvergence check = new RegionalConvergence(parts.size(), Math::max,
        v -> world.allreduce(v, ReduceOp.MAX), update -> update < TOLERANCE);
    double[] update = new double[parts.size()];
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(parts.size());
    IterativeTasks[] groups = new IterativeTasks[parts.size()];
    for (int p = 0; p < parts.size(); p++) {
      MeshData md = parts.get(p);
      groups[p] = region.get(p).addIteration("jacobi").maxIterations(LIMIT)
          .atLimit(IterativeTasks.AtLimit.REPORT);
      TaskId ghosts = comm.addBoundaryExchange(TaskId.NONE, groups[p], md, physical);
      final int partition = p;
      double[] scratch = new double[md.numBlocks() * 16];
      TaskId sweep = groups[p].addTask(ghosts, "sweep", () -> {
        update[partition] = sweep(md, scratch, h);
        return TaskStatus.COMPLETE;
      });
      check.addCompletion(groups[p], sweep, p, () -> update[partition]);
    }
    tc.execute();
    for (IterativeTasks group : groups) {
      assertEquals(groups[0].limitReached(), group.limitReached());
    }
    double residual = 0.0;
    double ghost = 0.0;
    for (MeshData md : parts) {
      residual = Math.max(residual, worstResidual(md, h));
      ghost = Math.max(ghost, worstBoundaryGhost(md));
    }
    return new Result(groups[0].limitReached(), groups[0].iterations(), residual, ghost);
  }

  private static int at(MeshData md, int b, int j, int i) {
    return md.index(0, b, 0, 0, j, i);
  }

  /** One Jacobi sweep for {@code lap u = 1}; the largest change of any cell. */
  private static double sweep(MeshData md, double[] scratch, double h) {
    double[] u = md.data();
    IndexShape s = md.block(0).cellBounds();
    int lo = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    double change = 0.0;
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = lo; j < lo + 4; j++) {
        for (int i = lo; i < lo + 4; i++) {
          scratch[16 * b + 4 * (j - lo) + i - lo] = 0.25 * (u[at(md, b, j, i - 1)]
              + u[at(md, b, j, i + 1)] + u[at(md, b, j - 1, i)] + u[at(md, b, j + 1, i)]
              - h * h);
        }
      }
    }
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = lo; j < lo + 4; j++) {
        for (int i = lo; i < lo + 4; i++) {
          double next = scratch[16 * b + 4 * (j - lo) + i - lo];
          change = Math.max(change, Math.abs(next - u[at(md, b, j, i)]));
          u[at(md, b, j, i)] = next;
        }
      }
    }
    return change;
  }

  /** The largest |lap u - 1| over the interior, with the ghosts as they are. */
  private static double worstResidual(MeshData md, double h) {
    double[] u = md.data();
    int lo = md.block(0).cellBounds().start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    double worst = 0.0;
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int j = lo; j < lo + 4; j++) {
        for (int i = lo; i < lo + 4; i++) {
          double lap = (u[at(md, b, j, i - 1)] + u[at(md, b, j, i + 1)] + u[at(md, b, j - 1, i)]
              + u[at(md, b, j + 1, i)] - 4 * u[at(md, b, j, i)]) / (h * h);
          worst = Math.max(worst, Math.abs(lap - 1.0));
        }
      }
    }
    return worst;
  }

  /** The largest |u| in the face ghosts of blocks on the domain boundary. */
  private static double worstBoundaryGhost(MeshData md) {
    double[] u = md.data();
    int lo = md.block(0).cellBounds().start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
    double worst = 0.0;
    for (int b = 0; b < md.numBlocks(); b++) {
      double xmin = md.block(b).coords().x1f(lo);
      double ymin = md.block(b).coords().x2f(lo);
      for (int n = lo; n < lo + 4; n++) {
        if (xmin == 0.0) {
          worst = Math.max(worst, Math.abs(u[at(md, b, n, lo - 1)]));
        }
        if (ymin == 0.0) {
          worst = Math.max(worst, Math.abs(u[at(md, b, lo - 1, n)]));
        }
      }
    }
    return worst;
  }

  private static Result[] run(int ranks, PhysicalBoundaries physical) {
    Result[] results = new Result[ranks];
    InProcessRun.run(ranks, world -> results[world.rank()] = solve(world, physical));
    return results;
  }

  @Test
  void givenOutflowDeckAndTheDefaultExchange_thenBoundaryGhostsKeepTheirValuesAndJacobiConverges() {
    for (int ranks : new int[] {1, 2}) {
      for (Result r : run(ranks, PhysicalBoundaries.KEEP)) {
        assertFalse(r.limitReached(), "ranks=" + ranks + " iterations=" + r.iterations());
        assertTrue(r.iterations() > 10, "iterations=" + r.iterations());
        assertEquals(0.0, r.worstBoundaryGhost(), "ranks=" + ranks);
        assertTrue(r.worstResidual() < 1e-7, "ranks=" + ranks + " residual=" + r.worstResidual());
      }
    }
  }

  @Test
  void givenOutflowAppliedEveryIteration_thenTheSolveRunsIntoItsLimitAndReportsIt() {
    for (Result r : run(2, PhysicalBoundaries.APPLY)) {
      assertTrue(r.limitReached());
      assertEquals(LIMIT, r.iterations());
      assertTrue(r.worstBoundaryGhost() > 0.0);
    }
  }
}
