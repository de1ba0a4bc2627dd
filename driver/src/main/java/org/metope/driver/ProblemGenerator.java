package org.metope.driver;

import org.metope.mesh.field.MeshData;

/**
 * Sets the initial state of one block (Parthenon's {@code MeshBlock::ProblemGenerator}): the
 * interior cells of the independent fields in the base container. Ghost cells are filled
 * afterwards by the boundary exchange.
 *
 * <p>It is also the per-block initialisation hook: on an adaptive mesh the framework runs it on
 * every block again after each start-up refinement ({@link MeshInitialization}), so a block the
 * refinement made is set by the generator, not prolongated from its parent, and per-block set-up
 * done here (a field a package fills once) holds on every final block. It is not run after a
 * remesh during the run, nor on a restart.
 */
@FunctionalInterface
public interface ProblemGenerator {
  /** Initialises block {@code block} of partition {@code md} (a partition of {@code base}). */
  void generate(MeshData md, int block);
}
