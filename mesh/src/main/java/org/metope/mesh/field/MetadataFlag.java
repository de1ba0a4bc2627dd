package org.metope.mesh.field;

/**
 * The flags a {@link Metadata} is built from (Parthenon's {@code Metadata::Cell}, {@code
 * Metadata::Independent}, ...). Flags come in groups; at most one flag of each exclusive group may
 * be set, and {@link Metadata} fills in the group's default when none is.
 *
 * <ul>
 *   <li>topology (default {@link #NONE}): {@link #NONE}, {@link #CELL}, {@link #FACE}, {@link
 *       #EDGE}, {@link #NODE};
 *   <li>role in package resolution (default {@link #PROVIDES}): {@link #PRIVATE}, {@link
 *       #PROVIDES}, {@link #REQUIRES}, {@link #OVERRIDABLE};
 *   <li>evolution (default {@link #DERIVED}): {@link #INDEPENDENT}, {@link #DERIVED};
 *   <li>tensor shape (optional): {@link #VECTOR}, {@link #TENSOR};
 *   <li>data type (optional, real when neither is set): {@link #REAL}, {@link #INTEGER}; integer
 *       values exist for swarm variables only;
 *   <li>independent of each other: the rest.
 * </ul>
 */
public enum MetadataFlag {
  /** No position on the mesh: one value per component per block. */
  NONE,
  /** Cell-centred: one value per component per cell, ghosts included. */
  CELL,
  /** Face-centred: one array per face direction, one more index along each active axis. */
  FACE,
  /** Edge-centred: one array per edge direction, one more index along each active axis. */
  EDGE,
  /** Node-centred: one array, one more index along each active axis. */
  NODE,
  /** Belongs to its package only: resolved as {@code package::name}. */
  PRIVATE,
  /** Provided by this package; two providers of one name are an error. */
  PROVIDES,
  /** Not created here: another package must provide it (or declare it overridable). */
  REQUIRES,
  /** Created here unless another package provides it. */
  OVERRIDABLE,
  /** A rank-1 tensor: shape must have one dimension. */
  VECTOR,
  /** A rank-2 tensor: shape must have two dimensions. */
  TENSOR,
  /** Evolved by the time integrator: gets a copy per stage container and coarse buffers. */
  INDEPENDENT,
  /** Computed from other fields (e.g. by fill-derived callbacks). */
  DERIVED,
  /** Advected with the flow (informational, for packages). */
  ADVECTED,
  /** Obeys a conservation law (informational, for packages). */
  CONSERVED,
  /** Does not scale with volume (informational, for packages). */
  INTENSIVE,
  /** Written to restart files. */
  RESTART,
  /** Allocated per block on demand; declared through a {@link SparsePool}. */
  SPARSE,
  /** One copy shared by every stage container. */
  ONE_COPY,
  /** Ghost cells are filled by boundary communication. */
  FILL_GHOST,
  /**
   * Has fluxes: a cell field through its faces, one array per active direction; a face field
   * along its edges (its edge fluxes, whose circulation changes it), one edge-shaped array.
   */
  WITH_FLUXES,
  /**
   * A {@link #CELL} field at twice the block's resolution along every active axis, with the
   * block's ghost width (Parthenon's {@code Metadata::Fine}, indexed by {@code f_cellbounds}): its
   * coarse buffer has the block's own cells, and its fluxes the fine extents.
   */
  FINE,
  /** Sent between ranks on remesh even when neither independent nor filled in ghosts. */
  FORCE_REMESH_COMM,
  /**
   * Does not evolve (a mask, a material coefficient, a geometric factor): with {@link #FILL_GHOST}
   * its ghosts are filled at set-up and after every remesh only, never in a stage, with the
   * physical boundary condition the field declares ({@link Metadata.Builder#boundaryCondition}).
   */
  STATIC,
  /** Holds real ({@code double}) values: what every field and swarm variable holds by default. */
  REAL,
  /** Holds integer ({@code int}) values: swarm variables only (Parthenon's {@code Integer}). */
  INTEGER
}
