package org.metope.comm;

/**
 * Thrown by every communicator call once the run has been aborted: a rank called {@link
 * Communicator#abort(String)}, failed, or the run was stopped from outside. The message names the
 * rank that started the abort and its reason.
 */
public final class CommAbortedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Origin used when no rank started the abort (a time limit, an interrupt). */
  public static final int NO_RANK = -1;

  private final int originRank;
  private final String reason;

  /**
   * @param originRank the rank that started the abort, or {@link #NO_RANK}
   * @param reason its one-line reason
   */
  public CommAbortedException(int originRank, String reason) {
    super(originRank == NO_RANK
        ? "run aborted: " + reason
        : "run aborted by rank " + originRank + ": " + reason);
    this.originRank = originRank;
    this.reason = reason;
  }

  /** The rank that started the abort, or {@link #NO_RANK}. */
  public int originRank() {
    return originRank;
  }

  /** The one-line reason given by the rank that started the abort. */
  public String reason() {
    return reason;
  }
}
