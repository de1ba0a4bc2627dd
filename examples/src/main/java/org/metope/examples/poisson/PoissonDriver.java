package org.metope.examples.poisson;

import java.io.PrintStream;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;
import org.metope.driver.Driver;
import org.metope.driver.DriverStatus;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.reduce.AllReduce;
import org.metope.mesh.reduce.Reduce;
import org.metope.mesh.reduce.TaskReduction;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;
import org.metope.driver.RunOptions;
import org.metope.outputs.OutputSignal;
import org.metope.outputs.Outputs;
import org.metope.outputs.PrintfFormat;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.RegionalConvergence;
import org.metope.tasking.Task;
import org.metope.tasking.TaskAdder;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * The driver of Parthenon's {@code poisson} example: one task collection, one list per partition
 * of {@code base} (and its {@code delta} twin). The lists first demonstrate task reductions
 * (a 10-value "view" sum, the total mass, the largest rank to rank 0, a 10-value "vector" sum,
 * each printed by rank 0 as Parthenon prints them), then solve in one iterative group: a Jacobi
 * sweep, the sum of the squared changes printed as {@code Update norm = ...}, a ghost exchange
 * that keeps the boundary ghosts, and the convergence check on the largest change. The deck's
 * outputs are written before and after the solve, as Parthenon's {@code MakeOutputs} calls do.
 *
 * <p>Sums fold per-block values in global block order ({@link AllReduce#startInBlockOrder}), so
 * every printed value has the same bits on any number of ranks and partitions; the iteration
 * count does not depend on them either (the check is a maximum).
 */
final class PoissonDriver implements Driver {
  private static final int DEMO_WIDTH = 10;
  private static final PrintfFormat G = PrintfFormat.parse("%g");

  private final Mesh mesh;
  private final BoundaryCommunication boundaries;
  private final TaskThreadPool pool;
  private final Communicator comm;
  private final PrintStream out;
  private final PrintStream err;
  private final Outputs outputs;
  private final SimTime clock = SimTime.at(0.0);

  PoissonDriver(ParameterInput pin, Mesh mesh, BoundaryCommunication boundaries,
      TaskThreadPool pool, Communicator comm, RunOptions options, PrintStream err) {
    this.outputs = new Outputs(mesh, pin, clock, options.outputDirectory());
    this.mesh = mesh;
    this.boundaries = boundaries;
    this.pool = pool;
    this.comm = comm;
    this.out = options.out();
    this.err = err;
  }

  @Override
  public DriverStatus execute() {
    Params p = mesh.packages().get(PoissonPackage.NAME).params();
    List<MeshData> base = mesh.meshData("base");
    List<MeshData> delta = mesh.meshData("delta");
    TaskCollection tc = new TaskCollection();
    TaskRegion region = tc.addRegion(base.size());
    Reductions reductions = new Reductions(comm, mesh, base.size());
    PoissonStencil stencil = p.get("stencil", PoissonStencil.class);
    RegionalConvergence converged = new RegionalConvergence(base.size(), Math::max,
        v -> comm.allreduce(v, ReduceOp.MAX), e -> e < p.getDouble("error_tolerance"));
    IterativeTasks[] solves = new IterativeTasks[base.size()];
    for (int l = 0; l < base.size(); l++) {
      TaskList tl = region.get(l);
      TaskId demos = reductions.addDemos(tl, l, base.get(l));
      IterativeTasks solve = tl.addIteration("poisson")
          .maxIterations(p.getInt("max_iterations"))
          .atLimit(IterativeTasks.AtLimit.REPORT);
      solves[l] = solve;
      MeshData md = base.get(l);
      MeshData md2 = delta.get(l);
      int[] shift = new int[stencil.size()];
      TaskId sweep = solve.addTask(demos, "update_phi", () -> {
        PoissonPackage.updatePhi(md, md2, stencil, shift);
        return TaskStatus.COMPLETE;
      });
      TaskId norm = reductions.addUpdateNorm(solve, sweep, l, md2);
      TaskId ghosts = boundaries.addBoundaryExchange(sweep, solve, md);
      TaskId done = converged.addCompletion(solve, ghosts.and(norm), l,
          () -> PoissonPackage.largestChange(md, md2));
      tl.addTask(done, "print_complete", firstListOnRankZero(l, () -> {
        out.println("Poisson solver complete!");
        return TaskStatus.COMPLETE;
      }));
    }
    outputs.makeOutputs(mesh, clock, OutputSignal.NONE, () -> { });
    DriverError.execute(tc, pool, () -> "the poisson solve", boundaries::describeChannels);
    outputs.makeOutputs(mesh, clock, OutputSignal.NONE, () -> { });
    return report(solves[0], p);
  }

  /** Says whether the solve converged: a warning, or a failure, as the deck asks. */
  private DriverStatus report(IterativeTasks solve, Params p) {
    if (!solve.limitReached()) {
      return DriverStatus.COMPLETE;
    }
    String line = "poisson: the solve did not converge within max_iterations = "
        + p.getInt("max_iterations") + " (largest change above error_tolerance = "
        + p.getDouble("error_tolerance") + ")";
    if (p.getBoolean("fail_without_convergence")) {
      if (comm.rank() == 0) {
        err.println("metope: " + line);
      }
      return DriverStatus.FAILED;
    }
    if (p.getBoolean("warn_without_convergence") && comm.rank() == 0) {
      err.println("warning: " + line);
    }
    return DriverStatus.COMPLETE;
  }

  /** A task that runs {@code body} in list 0 of rank 0 only (Parthenon's once per region). */
  private Task firstListOnRankZero(int list, Task body) {
    return list == 0 && comm.rank() == 0 ? body : () -> TaskStatus.COMPLETE;
  }

  /** Formats a value as C++'s {@code std::cout} does by default ({@code %g}). */
  static String g(double value) {
    return G.format(value);
  }

  /**
   * The reductions of the lists: their per-block and per-list inputs, and the tasks that fill,
   * start, poll and print them. Each is started and polled by list 0, in regional tasks, so every
   * list has written its part before the start and none goes on before the result is in.
   */
  private final class Reductions {
    private final AllReduce view;
    private final AllReduce mass;
    private final Reduce maxRank;
    private final AllReduce vector;
    private final AllReduce updateNorm;
    private final int[] gids;
    private final double[] massPerBlock;
    private final double[] normPerBlock;
    private final int lists;

    Reductions(Communicator world, Mesh mesh, int lists) {
      this.view = new AllReduce(world, "view_reduce", DEMO_WIDTH);
      this.mass = new AllReduce(world, "total_mass", 1);
      this.maxRank = new Reduce(world, "max_rank", 1, 0);
      this.vector = new AllReduce(world, "vec_reduce", DEMO_WIDTH);
      this.updateNorm = new AllReduce(world, "update_norm", 1);
      this.lists = lists;
      List<MeshBlock> blocks = mesh.blocks();
      this.gids = new int[blocks.size()];
      for (int b = 0; b < gids.length; b++) {
        gids[b] = blocks.get(b).gid();
      }
      this.massPerBlock = new double[gids.length];
      this.normPerBlock = new double[gids.length];
    }

    /** The four demonstrations, their prints in Parthenon's order; returns the last. */
    TaskId addDemos(TaskList tl, int list, MeshData md) {
      return addRankAndVector(tl, list, addViewAndMass(tl, list, md));
    }

    /** The view sum and the total mass; returns the mass's report. */
    private TaskId addViewAndMass(TaskList tl, int list, MeshData md) {
      TaskId viewFilled = tl.addRegionalTask(TaskId.NONE, "fill_view", () -> {
        if (list == 0) {
          for (int n = 0; n < DEMO_WIDTH; n++) {
            view.contribution()[n] = n;
          }
        }
        return TaskStatus.COMPLETE;
      });
      TaskId viewDone = reduce(tl, list, viewFilled, "view", view,
          () -> view.startReduce(ReduceOp.SUM));
      TaskId viewShown = tl.addTask(viewDone, "report_view", firstListOnRankZero(list, () -> {
        printDemo("View reduction: ", view.result());
        return TaskStatus.COMPLETE;
      }));
      double[] partMass = new double[md.numBlocks()];
      TaskId massSummed = tl.addRegionalTask(TaskId.NONE, "sum_mass", () -> {
        PoissonPackage.sumMass(md, partMass);
        for (int b = 0; b < md.numBlocks(); b++) {
          massPerBlock[md.blockIndex(b)] = partMass[b];
        }
        return TaskStatus.COMPLETE;
      });
      TaskId massDone = reduce(tl, list, massSummed, "mass", mass,
          () -> mass.startInBlockOrder(ReduceOp.SUM, gids, massPerBlock, mesh.totalBlocks()));
      return tl.addTask(massDone.and(viewShown), "report_mass",
          firstListOnRankZero(list, () -> {
            out.println("Total mass = " + g(mass.value()));
            return TaskStatus.COMPLETE;
          }));
    }

    /**
     * The largest rank (to rank 0) and the vector sum, after {@code massShown}; returns the
     * vector's report. Parthenon's lists each add {@code n} to the vector; here the first list
     * adds it once per list, since lists may run on different threads.
     */
    private TaskId addRankAndVector(TaskList tl, int list, TaskId massShown) {
      TaskId rankSet = tl.addRegionalTask(TaskId.NONE, "max_rank", () -> {
        maxRank.contribution()[0] = comm.rank();
        return TaskStatus.COMPLETE;
      });
      TaskId rankDone = reduce(tl, list, rankSet, "rank", maxRank,
          () -> maxRank.startReduce(ReduceOp.MAX));
      TaskId rankShown = tl.addTask(rankDone.and(massShown), "report_rank",
          firstListOnRankZero(list, () -> {
            out.println("Max rank = " + (int) maxRank.value());
            return TaskStatus.COMPLETE;
          }));
      TaskId vectorFilled = tl.addRegionalTask(TaskId.NONE, "fill_vec", () -> {
        if (list == 0) {
          java.util.Arrays.fill(vector.contribution(), 0.0);
        }
        return TaskStatus.COMPLETE;
      });
      TaskId vectorAdded = tl.addRegionalTask(vectorFilled, "add_vec", () -> {
        if (list == 0) {
          for (int l = 0; l < lists; l++) {
            for (int n = 0; n < DEMO_WIDTH; n++) {
              vector.contribution()[n] += n;
            }
          }
        }
        return TaskStatus.COMPLETE;
      });
      TaskId vectorDone = reduce(tl, list, vectorAdded, "vec", vector,
          () -> vector.startReduce(ReduceOp.SUM));
      return tl.addTask(vectorDone.and(rankShown), "report_vec",
          firstListOnRankZero(list, () -> {
            printDemo("Vec reduction: ", vector.result());
            return TaskStatus.COMPLETE;
          }));
    }

    private void printDemo(String label, double[] values) {
      StringBuilder line = new StringBuilder(label);
      StringBuilder expected = new StringBuilder("Should be:     ");
      for (int n = 0; n < values.length; n++) {
        line.append(g(values[n])).append(' ');
        expected.append(n * lists * comm.size()).append(' ');
      }
      out.println(line);
      out.println(expected);
    }

    /**
     * Starts {@code reduction} in list 0 after {@code ready}, then polls it there in a regional
     * task, so no list goes on before the result is in.
     */
    private TaskId reduce(TaskAdder tl, int list, TaskId ready, String name,
        TaskReduction reduction, Task start) {
      Task idle = () -> TaskStatus.COMPLETE;
      TaskId started = tl.addTask(ready, "start_" + name, list == 0 ? start : idle);
      return tl.addRegionalTask(started, "check_" + name,
          list == 0 ? reduction::checkReduce : idle);
    }

    /**
     * In the solve: every list's squared changes per block, their sum in global block order,
     * printed by rank 0 (Parthenon's {@code SumDeltaPhi} and its report).
     */
    TaskId addUpdateNorm(IterativeTasks solve, TaskId sweep, int list, MeshData delta) {
      double[] part = new double[delta.numBlocks()];
      TaskId summed = solve.addRegionalTask(sweep, "sum_delta_phi", () -> {
        PoissonPackage.sumDeltaPhi(delta, part);
        for (int b = 0; b < delta.numBlocks(); b++) {
          normPerBlock[delta.blockIndex(b)] = part[b];
        }
        return TaskStatus.COMPLETE;
      });
      TaskId done = reduce(solve, list, summed, "norm", updateNorm,
          () -> updateNorm.startInBlockOrder(ReduceOp.SUM, gids, normPerBlock,
              mesh.totalBlocks()));
      return solve.addTask(done, "report_norm", firstListOnRankZero(list, () -> {
        out.println("Update norm = " + g(updateNorm.value()));
        return TaskStatus.COMPLETE;
      }));
    }
  }
}
