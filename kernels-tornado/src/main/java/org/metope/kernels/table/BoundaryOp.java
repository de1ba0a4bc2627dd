package org.metope.kernels.table;

/**
 * Operation codes of a boundary, stored as ints in {@link BoundaryTable#OP} because kernels take
 * nothing but primitive arrays. The code says what the refinement side of a boundary does; each
 * launch acts on the boundaries whose code it handles and skips the others, the way Parthenon's
 * prolongation/restriction loops test {@code refinement_op}.
 *
 * <table>
 *   <caption>which launch reads which code</caption>
 *   <tr><th>code</th><th>load</th><th>unload</th><th>prolongate</th><th>restrictBlocks</th></tr>
 *   <tr><td>COPY</td><td>copy</td><td>copy</td><td>skip</td><td>skip</td></tr>
 *   <tr><td>RESTRICT</td><td>restrict into buffer</td><td>copy</td><td>skip</td>
 *       <td>restrict</td></tr>
 *   <tr><td>PROLONGATE</td><td>copy</td><td>copy</td><td>prolongate</td><td>skip</td></tr>
 *   <tr><td>FLUX_X1..3</td><td>average faces into buffer</td><td>copy</td><td>skip</td>
 *       <td>skip</td></tr>
 *   <tr><td>INTERNAL_*</td><td>-</td><td>-</td><td>second pass</td><td>skip</td></tr>
 * </table>
 */
public final class BoundaryOp {
  /** Plain copy between the var box and the buffer. */
  public static final int COPY = 0;
  /** Cell-centred restriction: volume-weighted average of the 2, 4 or 8 fine cells. */
  public static final int RESTRICT = 1;
  /** Minmod-limited linear prolongation from the coarse var box into fine cells. */
  public static final int PROLONGATE = 2;
  /** Flux correction of x1-faces: area-weighted average over the fine faces in x2 and x3. */
  public static final int FLUX_X1 = 3;
  /** Flux correction of x2-faces: area-weighted average over the fine faces in x1 and x3. */
  public static final int FLUX_X2 = 4;
  /** Flux correction of x3-faces: area-weighted average over the fine faces in x1 and x2. */
  public static final int FLUX_X3 = 5;
  /**
   * Prolongation inside coarse elements of a face, edge or node field: each fine value inside
   * the coarse element the row names is the average of its fine neighbours on that element's
   * boundary (Parthenon's {@code ProlongateInternalAverage}), after the shared prolongation.
   */
  public static final int INTERNAL_AVERAGE = 6;
  /**
   * Prolongation of a face field's fine faces inside coarse cells that keeps the divergence
   * (Parthenon's {@code ProlongateInternalTothAndRoe}), after the shared prolongation.
   */
  public static final int INTERNAL_TOTH_AND_ROE = 7;

  private BoundaryOp() {}

  /** Whether {@code op} reads fine cells and writes their average (restriction or flux). */
  public static boolean isRestriction(int op) {
    return op == RESTRICT || isFlux(op);
  }

  /** Whether {@code op} is one of the three face-flux corrections. */
  public static boolean isFlux(int op) {
    return op == FLUX_X1 || op == FLUX_X2 || op == FLUX_X3;
  }

  /** Whether {@code op} fills fine values inside coarse elements (a second prolongation pass). */
  public static boolean isInternal(int op) {
    return op == INTERNAL_AVERAGE || op == INTERNAL_TOTH_AND_ROE;
  }

  /** Whether {@code op} needs a fine region and coordinates. */
  public static boolean usesFine(int op) {
    return op != COPY;
  }

  /** Whether {@code op} is one of the codes above. */
  public static boolean isValid(int op) {
    return op >= COPY && op <= INTERNAL_TOTH_AND_ROE;
  }

  /** The constant's name, for messages. */
  public static String name(int op) {
    switch (op) {
      case COPY:
        return "COPY";
      case RESTRICT:
        return "RESTRICT";
      case PROLONGATE:
        return "PROLONGATE";
      case FLUX_X1:
        return "FLUX_X1";
      case FLUX_X2:
        return "FLUX_X2";
      case FLUX_X3:
        return "FLUX_X3";
      case INTERNAL_AVERAGE:
        return "INTERNAL_AVERAGE";
      case INTERNAL_TOTH_AND_ROE:
        return "INTERNAL_TOTH_AND_ROE";
      default:
        return "UNKNOWN(" + op + ")";
    }
  }
}
