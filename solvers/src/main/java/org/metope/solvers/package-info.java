/**
 * Linear solvers on the mesh that a package calls (Parthenon's {@code solvers/}): {@link
 * org.metope.solvers.ConjugateGradientSolver} and {@link org.metope.solvers.BiCGStabSolver},
 * both {@link org.metope.solvers.LinearSolver}s, over a package's matrix-free {@link
 * org.metope.solvers.LinearOperator}, as tasks of its lists, with convergence parameters from a
 * deck block ({@link org.metope.solvers.SolverParams}).
 */
package org.metope.solvers;
