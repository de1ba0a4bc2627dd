package org.metope.mesh;

import org.metope.kernels.JvmKernelBackend;
import org.metope.kernels.KernelBackend;
import java.util.Set;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.tasking.IterativeTasks;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * Filling ghost cells, as drivers see it: the tasks that exchange boundary values and flux
 * corrections between blocks, and the physical boundary conditions. The {@code bvals} module
 * implements it; {@code mesh} declares it so that the driver loop never depends on how boundaries
 * are packed or sent (see DESIGN.md).
 *
 * <p>Call order: {@link #setup} once after the fields are initialised (and after every remesh),
 * then {@link #fillGhosts} for the initial state, then per stage and partition the tasks a driver
 * adds. Every method is collective over the ranks of the mesh's communicator in the sense that
 * every rank calls it for its own partitions.
 *
 * <p>Per stage, a driver posts the receives first ({@link #startReceiveBoundaries}, {@link
 * #startReceiveFluxCorrections}), then adds {@link #addFluxCorrection} after the fluxes are
 * computed and {@link #addBoundaryExchange} after the update, as Parthenon's advection driver
 * does.
 */
public interface BoundaryCommunication {
  /**
   * Builds everything the exchange needs for the current block layout: channels, tags, buffers and
   * boundary caches. Called after {@link Mesh#initializeFields} and after each remesh.
   */
  void setup(Mesh mesh);

  /**
   * Builds as {@link #setup(Mesh)} does, with the blocks of {@code newlyRefined} ranked below the
   * other blocks of their level where blocks share faces, edges or corners: Parthenon's first
   * exchange after refining blocks with face, edge or node fields, in which older fine blocks'
   * shared values win. The next {@link #setup(Mesh)} returns to the usual ranking. Default:
   * {@link #setup(Mesh)}.
   */
  default void setup(Mesh mesh, Set<LogicalLocation> newlyRefined) {
    setup(mesh);
  }

  /**
   * Forgets everything built for the current blocks (caches over their storage), before a remesh
   * replaces them, so that their storage can be freed; {@link #setup} builds anew for the new
   * blocks. Default: nothing.
   */
  default void release() {}

  /** Posts the receives of boundary values into {@code md} ({@code StartReceiveBoundBufs}). */
  TaskStatus startReceiveBoundaries(MeshData md);

  /** Posts the receives of flux corrections for {@code md} ({@code StartReceiveFluxCorrections}). */
  TaskStatus startReceiveFluxCorrections(MeshData md);

  /**
   * Adds the tasks that fill the ghost cells of every {@code FILL_GHOST} field of {@code md} from
   * the neighbouring blocks (send, receive, set, and on multilevel meshes the coarse-buffer
   * boundary conditions and prolongation), after {@code dependency}.
   *
   * @return the task after which the ghosts of {@code md} are filled
   */
  TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md);

  /** Whether an exchange inside an iterative group also applies the physical boundary conditions. */
  enum PhysicalBoundaries {
    /**
     * Ghosts on the domain boundary keep their values (Parthenon's iterative solvers, which send,
     * receive and set boundaries only): they act as fixed (Dirichlet) values.
     */
    KEEP,
    /** The deck's conditions (outflow, reflecting, user) are applied after every exchange. */
    APPLY
  }

  /**
   * {@link #addBoundaryExchange(TaskId, IterativeTasks, MeshData, PhysicalBoundaries)} that keeps
   * the ghosts on the domain boundary ({@link PhysicalBoundaries#KEEP}), as Parthenon's iterative
   * solvers do: applying {@code outflow} every iteration would turn the boundary into a Neumann
   * one, and a Poisson problem with a source of non-zero total then has no solution.
   */
  default TaskId addBoundaryExchange(TaskId dependency, IterativeTasks group, MeshData md) {
    return addBoundaryExchange(dependency, group, md, PhysicalBoundaries.KEEP);
  }

  /**
   * Adds, inside iterative group {@code group}, one complete ghost exchange of {@code md} that
   * repeats every iteration: posting the receives, then send, receive, set (and on multilevel
   * meshes the coarse-buffer boundary conditions and prolongation), then the physical boundary
   * conditions if {@code physical} is {@link PhysicalBoundaries#APPLY}. What an iterative solver
   * needs between sweeps. The returned id includes the send, so a task depending on it may change
   * interior cells in place. A later iteration's sends cannot overwrite ghosts a neighbour has not
   * yet read as long as every iteration ends in a regional (and, over ranks, collective)
   * convergence check that depends on the exchange, which a global convergence check does.
   *
   * <p>The default throws: implementations that cannot repeat an exchange must not pretend to.
   *
   * @return the task after which the ghosts of {@code md} are filled in this iteration
   */
  default TaskId addBoundaryExchange(TaskId dependency, IterativeTasks group, MeshData md,
      PhysicalBoundaries physical) {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " has no exchange inside an iterative group");
  }

  /**
   * Adds the tasks that fill the ghost cells of {@code md} that face blocks of the same or a finer
   * level (send, receive, set) after {@code dependency}, then the physical boundary conditions, as
   * {@link #addBoundaryExchange} does, but without prolongation: ghost cells that face a coarser
   * block keep their values. This is the
   * exchange Parthenon's burgers benchmark performs in its stages (its driver adds {@code
   * SendBoundBufs}, {@code ReceiveBoundBufs} and {@code SetBounds} but not {@code
   * ProlongateBounds}), so those ghosts keep the values of the last full fill (start-up or
   * remesh). On a single-level mesh this is {@link #addBoundaryExchange}.
   *
   * <p>The default throws: implementations that cannot skip prolongation must not pretend to.
   *
   * @return the task after which the exchanged ghosts of {@code md} are set
   */
  default TaskId addBoundaryExchangeWithoutProlongation(TaskId dependency, TaskList list,
      MeshData md) {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " has no exchange without prolongation");
  }

  /**
   * Adds the tasks that replace the fluxes on faces shared with finer blocks by the restricted
   * fine fluxes, after {@code dependency}; on a single-level mesh there are none and {@code
   * dependency} is returned.
   */
  TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md);

  /** Applies the physical boundary conditions (outflow, reflecting, user) to {@code md}. */
  TaskStatus applyBoundaryConditions(MeshData md);

  /**
   * Fills every ghost cell of {@code container} on every partition, outside of any task list:
   * exchange with the neighbours, then boundary conditions (Parthenon's {@code
   * Mesh::CommunicateBoundaries}). Used for the initial state and after a remesh, on the
   * threads given to {@link #useThreads} (the calling thread until then).
   */
  void fillGhosts(Mesh mesh, String container);

  /**
   * Runs the partitions of later {@link #fillGhosts} calls on {@code pool}'s threads (null: on
   * the calling thread), as a driver runs its stages; the ghost values do not depend on it. The
   * caller sets it back to null before it closes {@code pool}. An implementation that fills
   * ghosts without task lists may ignore it, as the default does.
   */
  default void useThreads(TaskThreadPool pool) {}

  /**
   * The kernel backend this rank's launches go through; a remesh prolongates and restricts whole
   * blocks with it. The default is a new one-thread JVM backend (it holds no threads).
   */
  default KernelBackend kernels() {
    return new JvmKernelBackend(1);
  }

  /**
   * Every channel of this rank with its state, sequence numbers and size, one per line, for the
   * report of a stalled or aborted step; empty when the implementation keeps no channels.
   */
  default String describeChannels() {
    return "";
  }
}
