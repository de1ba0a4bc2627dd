/**
 * Linear solvers on the mesh that a package calls (Parthenon's {@code solvers/}): {@link
 * org.metope.solvers.ConjugateGradientSolver} over a package's matrix-free {@link
 * org.metope.solvers.LinearOperator}, as tasks of its lists, with convergence parameters from a
 * deck block ({@link org.metope.solvers.SolverParams}).
 */
package org.metope.solvers;
