package org.metope.mesh.field;

import org.metope.kernels.table.BoundaryTable;

/**
 * The operators that move a field between refinement levels (Parthenon's {@code
 * RefinementFunctions_t}, chosen with {@code Metadata::RegisterRefinementOps}): prolongation of
 * values on the coarse cells' boundaries (shared elements and cell centres), restriction, and
 * prolongation of the values inside a coarse cell (face, edge and node fields).
 *
 * <pre>{@code
 * Metadata b = Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
 *     .refinementOps(RefinementOps.DEFAULT.withInternal(InternalProlongation.TOTH_AND_ROE))
 *     .build();
 * }</pre>
 *
 * <p>Cell fields refine with {@link #DEFAULT}, Parthenon's defaults, or with {@link #LINEAR}
 * (Parthenon's {@code ProlongateSharedLinear}, which its multigrid solver's fields declare: the
 * ghost exchange is then linear in the field, as a linear solver needs). Face, edge and node
 * fields use theirs in the ghost exchange across levels and in a remesh ({@code org.metope.kernels.body.ElementRefinementKernels}; the kernel of {@link
 * InternalProlongation#TOTH_AND_ROE} is {@code FaceRefinementOps}).
 *
 * @param prolongation prolongation on shared elements and cell centres
 * @param restriction restriction
 * @param internal prolongation inside a coarse cell
 */
public record RefinementOps(Prolongation prolongation, Restriction restriction,
    InternalProlongation internal) {
  /** Parthenon's defaults: shared min-mod prolongation, averaging, internal averaging. */
  public static final RefinementOps DEFAULT = new RefinementOps(Prolongation.SHARED_MIN_MOD,
      Restriction.AVERAGE, InternalProlongation.AVERAGE);

  /**
   * Parthenon's {@code ProlongateSharedLinear} and averaging: unlimited one-sided slopes, for the
   * cell fields of linear solvers.
   */
  public static final RefinementOps LINEAR = new RefinementOps(Prolongation.SHARED_LINEAR,
      Restriction.AVERAGE, InternalProlongation.AVERAGE);

  /** Checks that no operator is null. */
  public RefinementOps {
    if (prolongation == null || restriction == null || internal == null) {
      throw new IllegalArgumentException("refinement operators must not be null: prolongation="
          + prolongation + " restriction=" + restriction + " internal=" + internal);
    }
  }

  /** These operators with {@code op} inside coarse cells. */
  public RefinementOps withInternal(InternalProlongation op) {
    return new RefinementOps(prolongation, restriction, op);
  }

  /** Prolongation on shared elements and cell centres. */
  public enum Prolongation {
    /** Parthenon's {@code ProlongateSharedMinMod}: limited linear, min-mod slopes. */
    SHARED_MIN_MOD,
    /**
     * Parthenon's {@code ProlongateSharedLinear}: each child takes the one-sided slope towards
     * its side, no limiter (cell fields only).
     */
    SHARED_LINEAR;

    /** The boundary table's code for these slopes ({@link BoundaryTable#SLOPES}). */
    public int tableSlopes() {
      return this == SHARED_LINEAR ? BoundaryTable.SLOPES_LINEAR : BoundaryTable.SLOPES_MIN_MOD;
    }
  }

  /** Restriction. */
  public enum Restriction {
    /** Parthenon's {@code RestrictAverage}: the volume (area, length) weighted average. */
    AVERAGE
  }

  /** Prolongation of the values inside a coarse cell. */
  public enum InternalProlongation {
    /** Parthenon's {@code ProlongateInternalAverage}. */
    AVERAGE,
    /**
     * Parthenon's {@code ProlongateInternalTothAndRoe}: keeps a face field's divergence (face
     * fields only).
     */
    TOTH_AND_ROE
  }
}
