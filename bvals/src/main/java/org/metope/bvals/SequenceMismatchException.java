package org.metope.bvals;

/**
 * {@link ChannelRegistry#verifySequences} found channels that were not received exactly as often
 * as they were sent. Thrown on every rank (each naming its own mismatches), so all ranks stop
 * together.
 */
public final class SequenceMismatchException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final long totalMismatches;

  SequenceMismatchException(String message, long totalMismatches) {
    super(message);
    this.totalMismatches = totalMismatches;
  }

  /** Mismatched channels summed over all ranks. */
  public long totalMismatches() {
    return totalMismatches;
  }
}
