package org.metope.solvers;

import org.metope.mesh.input.ParameterInput;

/**
 * Convergence parameters of a solver, read from a deck block (Parthenon's {@code solver_params}
 * block and its {@code BiCGSTABParams} keys and defaults).
 *
 * @param maxIterations {@code max_iterations} (1000): the solve ends there, converged or not
 * @param residualTolerance {@code residual_tolerance} (1e-12): the solve has converged once the
 *     rms residual {@code sqrt(sum r^2 / cells)} is below it
 * @param printPerStep {@code print_per_step} (false): rank 0 prints the rms residual of every
 *     iteration, as Parthenon prints it ({@code %i %e})
 * @param relativeResidual {@code relative_residual} (false): the tolerance is relative to the rms
 *     of the right-hand side
 */
public record SolverParams(int maxIterations, double residualTolerance, boolean printPerStep,
    boolean relativeResidual) {

  /** Reads {@code block} of the deck; a value out of range is one line naming the key. */
  public static SolverParams fromInput(ParameterInput pin, String block) {
    int maxIterations = pin.getOrAddInteger(block, "max_iterations", 1000);
    if (maxIterations < 1) {
      throw pin.error(block, "max_iterations", "a positive number of iterations");
    }
    double tolerance = pin.getOrAddReal(block, "residual_tolerance", 1.e-12);
    if (!(tolerance > 0.0)) {
      throw pin.error(block, "residual_tolerance", "a positive residual");
    }
    return new SolverParams(maxIterations, tolerance,
        pin.getOrAddBoolean(block, "print_per_step", false),
        pin.getOrAddBoolean(block, "relative_residual", false));
  }
}
