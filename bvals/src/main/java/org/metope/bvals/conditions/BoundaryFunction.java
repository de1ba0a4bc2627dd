package org.metope.bvals.conditions;

import org.metope.mesh.BoundaryFace;
import org.metope.mesh.field.MeshData;

/**
 * A physical boundary condition: fills the ghost slab of one face of one block of a partition
 * (Parthenon's boundary functions, registered by name for {@code ix1_bc = NAME} etc.). Called for
 * the block's cells, and on a multilevel mesh also for its coarse buffer ({@code coarse}), before
 * prolongation.
 */
@FunctionalInterface
public interface BoundaryFunction {
  /** Fills the ghosts beyond {@code face} of partition block {@code b}. */
  void apply(MeshData md, int b, BoundaryFace face, boolean coarse);
}
