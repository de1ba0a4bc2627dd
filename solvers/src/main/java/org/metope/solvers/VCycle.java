package org.metope.solvers;

import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.CompositeLevels;
import org.metope.mesh.DriverError;
import org.metope.mesh.MultigridLevels;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.Task;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskStatus;

/**
 * One multigrid V-cycle over the levels of {@link MultigridLevels} as tasks of one list
 * (Parthenon's {@code MGSolver::AddMultiGridTasksPartitionLevel} for every level, in the order its
 * messages impose on a mesh without refinement). Going down, each level above the coarsest
 * pre-smooths, forms the residual {@code res_err = rhs - A u} and restricts {@code u} and
 * {@code res_err} to the next level, which sets its right-hand side from them ({@code rhs =
 * res_err} with {@code u = 0}, or with FAS {@code rhs = A u + res_err}, keeping {@code u0 = u});
 * the coarsest level smooths only. Going up, each level takes the coarser level's error ({@code
 * u - u0} with FAS, else {@code u}) with its ghosts, prolongates it, adds it to {@code u} and
 * post-smooths. A smoothing stage is a ghost exchange of {@code u}, the operator's physical
 * boundary, {@code temp = A u} and a weighted Jacobi step {@code u += w (rhs - A u) / diag}.
 */
final class VCycle {
  /** Yang and Mittal's (2017) SRJ weights, by dimension and then stage, as Parthenon uses them. */
  private static final double[][][] WEIGHTS = {
      {{1.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {1.0, 0.0, 0.0}},
      {{0.8723, 0.5395, 0.0000}, {1.3895, 0.5617, 0.0000}, {1.7319, 0.5695, 0.0000}},
      {{0.9372, 0.6667, 0.5173}, {1.6653, 0.8000, 0.5264}, {2.2473, 0.8571, 0.5296}}};
  /** Parthenon's {@code robust::SMALL}: ten times the smallest normal double. */
  private static final double SMALL = 10 * Double.MIN_NORMAL;

  private final String name;
  private final MultigridParams params;
  private final MultigridOperator operator;
  private final MultigridLevels levels;
  private final int used;

  VCycle(String name, MultigridParams params, MultigridOperator operator,
      MultigridLevels levels) {
    this.name = name;
    this.params = params;
    this.operator = operator;
    this.levels = levels;
    this.used = Math.min(levels.count() - 1, params.maxCoarsenings()) + 1;
  }

  /**
   * One level's partition, exchange, field ids and block relations: {@code fine} marks the blocks
   * at the level's own tree level (Parthenon's {@code only_fine_on_composite}), {@code internal}
   * those of them that are not leaves (where FAS sets the right-hand side); {@code transfer}
   * moves fields between this level and the next coarser one.
   */
  record Level(int m, MeshData md, BoundaryCommunication exchange, int u, int rhs, int resErr,
      int temp, int u0, int diag, IndexBox interior, IndexBox entire, CompositeLevels links,
      boolean[] fine, boolean[] internal, GridTransfer transfer) {}

  /**
   * The levels of list {@code list}, finest first, solving for {@code u} with {@code rhs}; on a
   * refined mesh every level is one partition, list 0's.
   */
  Level[] levels(int list, String u, String rhs) {
    Level[] out = new Level[used];
    for (int m = 0; m < used; m++) {
      MeshData md = levels.mesh(m).meshData("base").get(list);
      CompositeLevels links = levels.links(m);
      boolean[] fine = new boolean[md.numBlocks()];
      boolean[] internal = new boolean[md.numBlocks()];
      for (int b = 0; b < internal.length; b++) {
        fine[b] = links.onLevel()[md.blockIndex(b)];
        internal[b] = fine[b] && !links.leaf()[md.blockIndex(b)];
      }
      IndexBox interior = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
      int widest = Math.max(interior.i().e() - interior.i().s(),
          Math.max(interior.j().e() - interior.j().s(), interior.k().e() - interior.k().s())) + 1;
      out[m] = new Level(m, md, levels.boundaries(m), id(md, u), id(md, rhs),
          id(md, name + "_res_err"), id(md, name + "_temp"), id(md, name + "_u0"),
          id(md, name + "_D"), interior, IndexBox.of(md.block(0).cellBounds(),
          IndexDomain.ENTIRE), links, fine, internal, new GridTransfer(widest));
    }
    return out;
  }

  /**
   * Adds one V-cycle of list {@code list} (of {@code lists}) solving for {@code u} with {@code
   * rhs} after {@code dependency}; returns its last task. On a refined mesh, whose levels are one
   * partition each, the lists meet before and after it, and list 0 runs it in one task: it copies
   * the mesh's fields into level 0, runs the cycle's own task list, and copies {@code u} back.
   */
  TaskId addFor(IterativeTasks group, TaskId dependency, int list, String u, String rhs) {
    if (!levels.composite()) {
      return add(group, dependency, levels(list, u, rhs));
    }
    TaskId in = group.addRegionalTask(dependency, name + "_levels_in",
        () -> TaskStatus.COMPLETE);
    TaskId run = group.addTask(in, name + "_levels_cycle",
        list == 0 ? onLevels(u, rhs) : () -> TaskStatus.COMPLETE);
    return group.addRegionalTask(run, name + "_levels_out", () -> TaskStatus.COMPLETE);
  }

  /** List 0's task on a refined mesh: the mesh into level 0, a V-cycle, {@code u} back. */
  private Task onLevels(String u, String rhs) {
    Level[] lv = levels(0, u, rhs);
    TaskCollection cycleTasks = new TaskCollection();
    IterativeTasks once = cycleTasks.addRegion(1).get(0).addIteration(name + "_levels")
        .maxIterations(1);
    once.setCompletionTask(add(once, TaskId.NONE, lv), name + "_levels_done",
        () -> TaskStatus.COMPLETE);
    int container = lv[0].md().container();
    return () -> {
      levels.exchangeWithMesh(true, container, -1);
      DriverError.execute(cycleTasks, null, () -> "a V-cycle of " + name,
          () -> "");
      levels.exchangeWithMesh(false, container, lv[0].u());
      return TaskStatus.COMPLETE;
    };
  }

  private static int id(MeshData md, String field) {
    return md.state().fieldId(field);
  }

  /**
   * Adds one V-cycle after {@code dependency}; returns its last task. On a refined mesh each
   * level's work starts by taking the leaves' current values from level 0 and ends by giving them
   * back ({@link MultigridLevels#pullLeaves}), Parthenon's one memory per block.
   */
  TaskId add(IterativeTasks group, TaskId dependency, Level[] lv) {
    int coarsest = lv.length - 1;
    int stages = params.smootherStages();
    TaskId t = dependency;
    for (int m = 0; m < coarsest; m++) {
      t = pull(group, t, lv[m]);
      if (m > 0) {
        t = fromFiner(group, t, lv[m]);
      }
      t = smooth(group, diagonal(group, t, lv[m]), lv[m], stages);
      t = residual(group, exchange(group, t, lv[m]), lv[m]);
      Level fine = lv[m];
      Level coarse = lv[m + 1];
      t = group.addTask(t, name + "_restrict", () -> {
        fine.transfer().restrict(fine.md(), fine.u(), fine.links(), coarse.md(), coarse.u());
        fine.transfer().restrict(fine.md(), fine.resErr(), fine.links(), coarse.md(),
            coarse.resErr());
        return TaskStatus.COMPLETE;
      });
      t = push(group, t, lv[m]);
    }
    Level bottom = lv[coarsest];
    t = pull(group, t, bottom);
    if (coarsest > 0) {
      t = fromFiner(group, t, bottom);
    }
    t = smooth(group, diagonal(group, t, bottom), bottom, stages);
    t = group.addTask(t, name + "_copy", () -> {
      FieldOps.copy(bottom.md(), bottom.interior(), bottom.u(), bottom.resErr(), bottom.fine());
      return TaskStatus.COMPLETE;
    });
    int nghost = levels.mesh(0).nghost();
    for (int m = coarsest - 1; m >= 0; m--) {
      t = push(group, errorForFiner(group, t, lv[m + 1]), lv[m + 1]);
      Level fine = lv[m];
      Level coarse = lv[m + 1];
      t = group.addTask(pull(group, t, fine), name + "_prolongate", () -> {
        fine.transfer().prolongate(coarse.md(), coarse.resErr(), fine.links(), fine.md(),
            fine.resErr(), nghost);
        FieldOps.combine(fine.md(), fine.interior(), 1.0, fine.u(), 1.0, fine.resErr(),
            fine.u(), fine.fine());
        return TaskStatus.COMPLETE;
      });
      t = smooth(group, t, fine, stages);
    }
    return t;
  }

  private TaskId pull(IterativeTasks group, TaskId t, Level l) {
    if (!levels.composite() || l.m() == 0) {
      return t;
    }
    return group.addTask(t, name + "_pull_leaves", () -> {
      levels.pullLeaves(l.m(), l.md().container());
      return TaskStatus.COMPLETE;
    });
  }

  private TaskId push(IterativeTasks group, TaskId t, Level l) {
    if (!levels.composite() || l.m() == 0) {
      return t;
    }
    return group.addTask(t, name + "_push_leaves", () -> {
      levels.pushLeaves(l.m(), l.md().container());
      return TaskStatus.COMPLETE;
    });
  }

  /**
   * Step 1 on a coarse level: the right-hand side from the restricted residual ({@code rhs =
   * res_err} and {@code u = 0}, or with FAS {@code u0 = u} and {@code rhs = A u + res_err} on the
   * blocks that are not leaves, whose own right-hand side stays), on the level's own blocks.
   */
  private TaskId fromFiner(IterativeTasks group, TaskId t, Level l) {
    if (!params.fas()) {
      return group.addTask(t, name + "_rhs_cs", () -> {
        FieldOps.zero(l.md(), l.interior(), l.u(), l.fine());
        FieldOps.copy(l.md(), l.interior(), l.resErr(), l.rhs(), l.fine());
        return TaskStatus.COMPLETE;
      });
    }
    TaskId ghosts = exchange(group, t, l);
    return group.addTask(ghosts, name + "_rhs_fas", () -> {
      FieldOps.copy(l.md(), l.interior(), l.u(), l.u0(), l.fine());
      operator.apply(l.md(), l.u(), l.temp());
      FieldOps.combine(l.md(), l.interior(), 1.0, l.temp(), 1.0, l.resErr(), l.rhs(),
          l.internal());
      return TaskStatus.COMPLETE;
    });
  }

  private TaskId diagonal(IterativeTasks group, TaskId t, Level l) {
    return group.addTask(t, name + "_diagonal", () -> {
      operator.diagonal(l.md(), l.diag());
      return TaskStatus.COMPLETE;
    });
  }

  /** Steps 3 and 4: {@code res_err = rhs - A u} (ghosts of {@code u} filled before). */
  private TaskId residual(IterativeTasks group, TaskId t, Level l) {
    return group.addTask(t, name + "_residual", () -> {
      operator.apply(l.md(), l.u(), l.temp());
      FieldOps.combine(l.md(), l.interior(), 1.0, l.rhs(), -1.0, l.temp(), l.resErr(),
          l.fine());
      return TaskStatus.COMPLETE;
    });
  }

  /**
   * Step 9: the error this level hands to the finer one, in {@code res_err} with its ghosts
   * (exchanged through {@code u}, whose values {@code temp} keeps meanwhile).
   */
  private TaskId errorForFiner(IterativeTasks group, TaskId t, Level l) {
    TaskId swapped = group.addTask(t, name + "_error", () -> {
      if (params.fas()) {
        FieldOps.combine(l.md(), l.interior(), 1.0, l.u(), -1.0, l.u0(), l.resErr(), l.fine());
      } else {
        FieldOps.copy(l.md(), l.interior(), l.u(), l.resErr(), l.fine());
      }
      FieldOps.copy(l.md(), l.entire(), l.u(), l.temp());
      FieldOps.copy(l.md(), l.entire(), l.resErr(), l.u());
      return TaskStatus.COMPLETE;
    });
    return group.addTask(exchange(group, swapped, l), name + "_error_ghosts", () -> {
      FieldOps.copy(l.md(), l.entire(), l.u(), l.resErr(), l.fine());
      FieldOps.copy(l.md(), l.entire(), l.temp(), l.u());
      return TaskStatus.COMPLETE;
    });
  }

  /** Parthenon's {@code AddSRJIteration}: {@code stages} weighted Jacobi sweeps of {@code u}. */
  private TaskId smooth(IterativeTasks group, TaskId t, Level l, int stages) {
    int ndim = l.md().block(0).mesh().ndim();
    for (int s = 0; s < stages; s++) {
      double weight = WEIGHTS[stages - 1][ndim - 1][s];
      TaskId ghosts = exchange(group, t, l);
      t = group.addTask(ghosts, name + "_jacobi", () -> {
        operator.apply(l.md(), l.u(), l.temp());
        jacobi(l, weight);
        FieldOps.copy(l.md(), l.interior(), l.temp(), l.u(), l.fine());
        return TaskStatus.COMPLETE;
      });
    }
    return t;
  }

  /**
   * {@code temp = w (rhs - (A u - diag u)) / diag + (1 - w) u}, where {@code temp} holds {@code A
   * u} on entry (Parthenon's {@code Jacobi} with {@code robust::ratio}).
   */
  private static void jacobi(Level l, double weight) {
    MeshData md = l.md();
    double[] a = md.data();
    IndexBox box = l.interior();
    for (int b = 0; b < md.numBlocks(); b++) {
      if (!l.fine()[b]) {
        continue;
      }
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          int ax = md.index(l.temp(), b, 0, k, j, box.i().s());
          int d = md.index(l.diag(), b, 0, k, j, box.i().s());
          int u = md.index(l.u(), b, 0, k, j, box.i().s());
          int rhs = md.index(l.rhs(), b, 0, k, j, box.i().s());
          for (int n = 0; n <= box.i().e() - box.i().s(); n++) {
            double diag = a[d + n];
            double old = a[u + n];
            double offDiagonal = a[ax + n] - diag * old;
            double value = a[rhs + n] - offDiagonal;
            double sign = diag >= 0 ? 1.0 : -1.0;
            a[ax + n] = weight * (value / (diag + sign * SMALL)) + (1.0 - weight) * old;
          }
        }
      }
    }
  }

  /** A ghost exchange of {@code u} on level {@code l}, then the operator's physical boundary. */
  private TaskId exchange(IterativeTasks group, TaskId t, Level l) {
    TaskId ghosts = l.exchange().addBoundaryExchange(t, group, l.md());
    return group.addTask(ghosts, name + "_boundary", () -> {
      operator.boundary(l.md(), l.u());
      return TaskStatus.COMPLETE;
    });
  }
}
