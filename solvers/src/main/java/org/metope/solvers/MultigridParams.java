package org.metope.solvers;

import java.util.List;
import org.metope.mesh.input.ParameterInput;

/**
 * Parameters of {@link MultigridSolver}, read from a deck block as Parthenon's {@code MGParams}
 * reads its {@code solver_params} block, with its defaults.
 *
 * @param maxIterations {@code max_iterations} (1000): V-cycles at most
 * @param residualTolerance {@code residual_tolerance} (1e-12): converged once the rms residual
 *     is at or below it
 * @param fas {@code do_FAS} (true): the full approximation scheme (coarse levels carry the
 *     solution) instead of the correction scheme (coarse levels carry the error)
 * @param smootherStages from {@code smoother} ({@code SRJ2}): 0 for {@code none}, 1, 2 or 3 for
 *     {@code SRJ1}, {@code SRJ2}, {@code SRJ3}: the Jacobi sweeps before and after each coarse
 *     correction, with the scheduled relaxation weights of Yang and Mittal (2017)
 * @param maxCoarsenings {@code max_coarsenings} (no limit): levels used below the mesh
 */
public record MultigridParams(int maxIterations, double residualTolerance, boolean fas,
    int smootherStages, int maxCoarsenings) {
  private static final List<String> SMOOTHERS = List.of("none", "SRJ1", "SRJ2", "SRJ3");

  /** Reads {@code block}; a value out of range is one line naming the key. */
  public static MultigridParams fromInput(ParameterInput pin, String block) {
    int maxIterations = pin.getOrAddInteger(block, "max_iterations", 1000);
    if (maxIterations < 1) {
      throw pin.error(block, "max_iterations", "a positive number of V-cycles");
    }
    double tolerance = pin.getOrAddReal(block, "residual_tolerance", 1.e-12);
    if (!(tolerance > 0.0)) {
      throw pin.error(block, "residual_tolerance", "a positive residual");
    }
    boolean fas = pin.getOrAddBoolean(block, "do_FAS", true);
    String smoother = pin.getOrAddString(block, "smoother", "SRJ2", SMOOTHERS);
    if (pin.getOrAddBoolean(block, "two_by_two_diagonal", false)) {
      throw pin.error(block, "two_by_two_diagonal", "false (the 2x2 block-diagonal Jacobi smoother"
          + " is not built)");
    }
    int maxCoarsenings = pin.getOrAddInteger(block, "max_coarsenings", Integer.MAX_VALUE);
    if (maxCoarsenings < 0) {
      throw pin.error(block, "max_coarsenings", "an integer >= 0");
    }
    return new MultigridParams(maxIterations, tolerance, fas, SMOOTHERS.indexOf(smoother),
        maxCoarsenings);
  }
}
