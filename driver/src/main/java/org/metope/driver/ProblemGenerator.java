package org.metope.driver;

import org.metope.mesh.field.MeshData;

/**
 * Sets the initial state of one block (Parthenon's {@code MeshBlock::ProblemGenerator}): the
 * interior cells of the independent fields in the base container. Ghost cells are filled
 * afterwards by the boundary exchange.
 */
@FunctionalInterface
public interface ProblemGenerator {
  /** Initialises block {@code block} of partition {@code md} (a partition of {@code base}). */
  void generate(MeshData md, int block);
}
