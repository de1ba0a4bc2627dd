package org.metope.mesh;

import java.util.List;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.field.MeshData;
import org.metope.tasking.Task;
import org.metope.tasking.TaskStatus;

/**
 * What the mesh, the driver and the outputs need from the adaptive refinement attached to a mesh
 * ({@link Mesh#refinement()}). The implementation, {@code org.metope.amr.AdaptiveRefinement},
 * lives in the {@code amr} module above this one; this interface keeps the arrow pointing down.
 */
public interface MeshRefinement {

  /** Tags the blocks of {@code md}, a partition of {@code base} (Parthenon's {@code Tag} task). */
  TaskStatus tag(MeshData md);

  /**
   * The {@code Tag} task of {@code md}, made once per partition and layout: {@link #tag} on a
   * backend that is not resident; on a device-resident {@code kernels}, the criteria's measures on
   * the device when every criterion has a device form (only the measures cross), else {@link
   * #tag} with the host copy of the arena acquired for reading.
   */
  Task tagTask(MeshData md, KernelBackend kernels);

  /**
   * One pass of start-up refinement, after the initial state is set and ghosts filled: tags every
   * block and remeshes if the tree changed.
   *
   * @param initialBlocks the number of blocks before start-up refinement began
   * @param beforeReplace run, if the mesh changes, once the old blocks' data are packed and before
   *     the blocks and storage are replaced (as for a remesh)
   * @return whether the number of blocks changed, so that the initial state must be made again
   */
  boolean initialRefinementStep(int initialBlocks, Runnable beforeReplace);

  /** Marks the start of the time loop: later remeshes count as the loop's. */
  void startLoop();

  /**
   * After a step: gathers the tags, updates the forest and, if it changed, remeshes; {@code
   * beforeReplace} runs before the blocks and partitions are replaced.
   *
   * @return whether the mesh changed
   */
  default boolean loadBalancingAndAdaptiveMeshRefinement(Runnable beforeReplace) {
    return loadBalancingAndAdaptiveMeshRefinement(() -> { }, beforeReplace);
  }

  /**
   * {@link #loadBalancingAndAdaptiveMeshRefinement(Runnable)} with {@code beforeRead} run once the
   * forest changed and before the remesh reads any field (a device-resident driver brings the
   * fields to the host there, and only then).
   */
  boolean loadBalancingAndAdaptiveMeshRefinement(Runnable beforeRead, Runnable beforeReplace);

  /**
   * This rank's votes from the last tagging: {@code votes[at]} the blocks asking to refine, {@code
   * votes[at + 1]} those asking to derefine that may still complete a group of siblings (votes
   * whose group has a sibling that stays do not count; a sum below one group means no merge can
   * happen). The driver sums them over the ranks in its cycle's
   * one reduction (with the time step and the wall-time check) and passes the sums to {@link
   * #loadBalancingAndAdaptiveMeshRefinement(long, long, Runnable, Runnable)}.
   */
  void localVotes(long[] votes, int at);

  /**
   * {@link #loadBalancingAndAdaptiveMeshRefinement(Runnable, Runnable)} with the votes already
   * summed over every rank ({@link #localVotes}), so it makes no reduction of its own.
   */
  boolean loadBalancingAndAdaptiveMeshRefinement(long refineVotes, long derefineVotes,
      Runnable beforeRead, Runnable beforeReplace);

  /** Whether the last call to {@link #loadBalancingAndAdaptiveMeshRefinement} changed the mesh. */
  boolean modified();

  /** The derefinement counter of the local block {@code lid} (written to restart files). */
  int derefineCount(int lid);

  /** Warnings for the user gathered so far (criteria settings, start-up growth). */
  List<String> warnings();

  /** What refinement has done so far. */
  Statistics statistics();

  /**
   * What adaptive refinement did during a run.
   *
   * @param created blocks created by refinement (Parthenon's {@code nbnew}), start-up included,
   *     and after a restart those of the runs before it
   * @param destroyed blocks removed by merges (Parthenon's {@code nbdel}), likewise
   * @param remeshes remeshes in the time loop
   * @param startupRemeshes remeshes during start-up refinement
   * @param remeshSeconds wall time of the time loop's remeshes (those that changed the mesh)
   */
  record Statistics(long created, long destroyed, int remeshes, int startupRemeshes,
      double remeshSeconds) {}
}
