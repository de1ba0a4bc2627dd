package org.metope.solvers;

import java.io.PrintStream;
import org.metope.comm.Communicator;
import org.metope.mesh.Mesh;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.IndexBox;
import org.metope.tasking.IterativeTasks;

/**
 * What the Krylov solvers share: the solve's name, parameters, operator and communicator, the
 * number of interior cells (the rms residual's divisor), the iterative groups of the last solve
 * (one per list of the region) and its outcome.
 */
abstract class IterativeSolver implements LinearSolver {
  final String name;
  final SolverParams params;
  final LinearOperator operator;
  final Communicator comm;
  final PrintStream out;
  /** Interior cells of the whole mesh. */
  final long cells;
  IterativeTasks[] groups = new IterativeTasks[0];
  int iterations;
  double finalResidual = Double.NaN;

  IterativeSolver(String name, SolverParams params, LinearOperator operator, Mesh mesh,
      Communicator comm, PrintStream out) {
    this.name = name;
    this.params = params;
    this.operator = operator;
    this.comm = comm;
    this.out = out;
    IndexBox interior = IndexBox.of(mesh.blocks().get(0).cellBounds(), IndexDomain.INTERIOR);
    this.cells = interior.size() * mesh.totalBlocks();
  }

  /** The rms over the mesh's interior cells of values whose squares sum to {@code squares}. */
  double rms(double squares) {
    return Math.sqrt(squares / cells);
  }

  /** Whether this rank prints the residual history. */
  boolean printing() {
    return params.printPerStep() && comm.rank() == 0;
  }

  /**
   * The tolerance on the rms residual: absolute, or relative to the rms of the vector whose
   * squares sum to {@code referenceSquares} (the right-hand side, or the first residual).
   */
  double tolerance(double referenceSquares) {
    return params.relativeResidual() ? params.residualTolerance() * rms(referenceSquares)
        : params.residualTolerance();
  }

  @Override
  public int iterations() {
    return iterations;
  }

  @Override
  public double finalResidual() {
    return finalResidual;
  }

  @Override
  public boolean converged() {
    return groups.length > 0 && groups[0] != null && !groups[0].limitReached();
  }
}
