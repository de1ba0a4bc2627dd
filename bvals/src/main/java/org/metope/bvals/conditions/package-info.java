/**
 * Physical boundary conditions (Parthenon's {@code bvals/boundary_conditions}): the built-in
 * {@code periodic}, {@code outflow} and {@code reflecting} faces, run as one launch per partition
 * ({@link org.metope.bvals.conditions.BoundaryConditionLaunch}), and the user conditions an
 * application registers per face and name in {@link org.metope.bvals.conditions.BoundaryFunctions}.
 */
package org.metope.bvals.conditions;
