package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.metope.bvals.conditions.BoundaryFunctions;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.RegionalConvergence;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;

/**
 * GIVEN Laplace's equation on a 12x12 grid of 3x3 blocks with Dirichlet ghosts from u = x^2 - y^2,
 * solved by Jacobi sweeps in an iterative task group whose every iteration exchanges ghosts and
 * applies the boundary functions ({@code addBoundaryExchange} inside the group, {@code APPLY}) and
 * stops on a global maximum update ({@link
 * RegionalConvergence}: over the partitions, then the ranks), THEN the iteration converges to x^2 -
 * y^2 at the cell centres (the five-point
 * Laplacian of a quadratic is exact, so it is the discrete solution) with the same iteration count
 * and the same bits for every pack size and 1 or 2 ranks. Without the exchange inside the group
 * (the negative control) it converges to something else.
 */
class IterativeExchangeTest {
  private static final double TOLERANCE = 1e-13;
  /** x^2 - y^2 at each block's cell centres, by gid (the same mesh in every run). */
  private static final Map<Integer, double[]> EXACT = new ConcurrentHashMap<>();

  private static String deck(int packSize) {
    return "<parthenon/mesh>\npack_size = " + packSize + "\nnx1 = 12\nx1min = 0\nx1max = 1\n"
        + "ix1_bc = dirichlet\nox1_bc = dirichlet\nnx2 = 12\nx2min = 0\nx2max = 1\n"
        + "ix2_bc = dirichlet\nox2_bc = dirichlet\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\n";
  }

  private static double exact(double x, double y) {
    return x * x - y * y;
  }

  /** Dirichlet: every ghost of the face's slab takes the exact solution at its centre. */
  private static void dirichlet(MeshData md, int b, BoundaryFace face, boolean coarse) {
    IndexShape s = md.block(b).cellBounds();
    UniformCartesian xy = md.block(b).coords();
    int axis = face.axis();
    int is = s.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    int ie = s.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    int from = face.isOuter() ? ie + 1 : 0;
    int to = face.isOuter() ? s.entireNcells(axis) - 1 : is - 1;
    for (int n = 0; n < s.entireNcells(1 - axis); n++) {
      for (int g = from; g <= to; g++) {
        int i = axis == 0 ? g : n;
        int j = axis == 0 ? n : g;
        md.data()[md.index(0, b, 0, 0, j, i)] = exact(xy.x1c(i), xy.x2c(j));
      }
    }
  }

  /** One rank's solve; returns its iteration count and records interiors by gid. */
  private static int solve(Communicator world, int packSize, boolean exchangeInside,
      Map<Integer, double[]> interiors) {
    BoundaryFunctions bcs = new BoundaryFunctions()
        .registerEveryFace("dirichlet", IterativeExchangeTest::dirichlet);
    ParameterInput pin = ParameterInput.parse("jacobi.in", deck(packSize), List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin, bcs.names()), world);
    StateDescriptor pkg = new StateDescriptor("jacobi");
    pkg.addField("u", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    comm.boundaryConditions().use(bcs);
    comm.setup(mesh);

    List<MeshData> parts = mesh.meshData("base");
    RegionalConvergence check = new RegionalConvergence(parts.size(), Math::max,
        v -> world.allreduce(v, ReduceOp.MAX), update -> update < TOLERANCE);
    double[] update = new double[parts.size()];
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(parts.size());
    IterativeTasks[] groups = new IterativeTasks[parts.size()];
    for (int p = 0; p < parts.size(); p++) {
      MeshData md = parts.get(p);
      TaskList tl = region.get(p);
      IterativeTasks jacobi = tl.addIteration("jacobi").maxIterations(5000);
      groups[p] = jacobi;
      TaskId ghosts = exchangeInside ? comm.addBoundaryExchange(TaskId.NONE, jacobi, md,
          InOneBoundaryCommunication.PhysicalBoundaries.APPLY) : TaskId.NONE;
      final int partition = p;
      double[] scratch = new double[md.numBlocks() * 16];
      TaskId sweep = jacobi.addTask(ghosts, "sweep", () -> {
        update[partition] = sweep(md, scratch);
        return TaskStatus.COMPLETE;
      });
      check.addCompletion(jacobi, sweep, p, () -> update[partition]);
    }
    if (!exchangeInside) {
      comm.fillGhosts(mesh, "base");
    }
    tc.execute();
    for (MeshData md : parts) {
      for (int b = 0; b < md.numBlocks(); b++) {
        double[] interior = new double[16];
        final int block = b;
        forInterior(md, b, (j, i, n) -> interior[n] = md.data()[md.index(0, block, 0, 0, j, i)]);
        interiors.put(md.block(b).gid(), interior);
        double[] centre = new double[16];
        UniformCartesian xy = md.block(b).coords();
        forInterior(md, b, (j, i, n) -> centre[n] = exact(xy.x1c(i), xy.x2c(j)));
        EXACT.put(md.block(b).gid(), centre);
      }
    }
    for (IterativeTasks group : groups) {
      assertEquals(groups[0].iterations(), group.iterations(), "every partition of the rank");
    }
    return groups[0].iterations();
  }

  /** A cell visitor: row, column and the cell's number in the interior. */
  private interface CellVisitor {
    void visit(int j, int i, int n);
  }

  private static void forInterior(MeshData md, int b, CellVisitor visitor) {
    IndexShape s = md.block(b).cellBounds();
    int n = 0;
    for (int j = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
        j <= s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC); j++) {
      for (int i = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
          i <= s.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
        visitor.visit(j, i, n++);
      }
    }
  }

  /** One Jacobi sweep over the partition; the largest change of any cell. */
  private static double sweep(MeshData md, double[] scratch) {
    double[] u = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      final int block = b;
      forInterior(md, b, (j, i, n) -> scratch[16 * block + n] = 0.25
          * (u[md.index(0, block, 0, 0, j, i - 1)] + u[md.index(0, block, 0, 0, j, i + 1)]
          + u[md.index(0, block, 0, 0, j - 1, i)] + u[md.index(0, block, 0, 0, j + 1, i)]));
    }
    double[] change = {0.0};
    for (int b = 0; b < md.numBlocks(); b++) {
      final int block = b;
      forInterior(md, b, (j, i, n) -> {
        int at = md.index(0, block, 0, 0, j, i);
        change[0] = Math.max(change[0], Math.abs(scratch[16 * block + n] - u[at]));
        u[at] = scratch[16 * block + n];
      });
    }
    return change[0];
  }

  /** Interiors by gid and the iteration count of each rank. */
  private record Solution(Map<Integer, double[]> interiors, int[] iterations) {}

  private static Solution run(int ranks, int packSize, boolean exchangeInside) {
    Map<Integer, double[]> interiors = new ConcurrentHashMap<>();
    int[] iterations = new int[ranks];
    InProcessRun.run(ranks, world ->
        iterations[world.rank()] = solve(world, packSize, exchangeInside, interiors));
    assertEquals(9, interiors.size());
    return new Solution(interiors, iterations);
  }

  /** The largest difference from x^2 - y^2 at the cell centres. */
  private static double error(Solution s) {
    double worst = 0.0;
    for (Map.Entry<Integer, double[]> e : s.interiors().entrySet()) {
      double[] centre = EXACT.get(e.getKey());
      for (int n = 0; n < 16; n++) {
        worst = Math.max(worst, Math.abs(e.getValue()[n] - centre[n]));
      }
    }
    return worst;
  }

  @Test
  void givenJacobiWithAnExchangeEveryIteration_thenSameIterationsAndBitsForAnyPackSizeAndRanks() {
    Solution reference = run(1, -1, true);
    int iterations = reference.iterations()[0];
    assertTrue(iterations > 100 && iterations < 5000, "iterations=" + iterations);
    assertTrue(error(reference) < 1e-11, "error=" + error(reference));
    int[][] configurations = {{1, 1}, {1, 2}, {2, -1}, {2, 1}, {2, 2}};
    for (int[] c : configurations) {
      Solution s = run(c[0], c[1], true);
      String name = "ranks=" + c[0] + " pack_size=" + c[1];
      for (int iterationsOfRank : s.iterations()) {
        assertEquals(iterations, iterationsOfRank, name);
      }
      for (int gid = 0; gid < 9; gid++) {
        assertArrayEquals(reference.interiors().get(gid), s.interiors().get(gid),
            name + " gid=" + gid);
      }
    }
  }

  @Test
  void givenNoExchangeInsideTheIteration_thenItConvergesToAWrongAnswer() {
    Solution s = run(2, 1, false);
    assertTrue(error(s) > 1e-2, "error=" + error(s));
  }
}
