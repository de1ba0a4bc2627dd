package org.metope.outputs;

/** Why outputs are being written (Parthenon's {@code SignalHandler::OutputSignal}). */
public enum OutputSignal {
  /** A regular check: each output writes when its time has come. */
  NONE,
  /** Every output writes now (except history), on the user's request. */
  NOW,
  /** The run ends: every output writes its final file. */
  FINAL,
  /** An analysis-only run: outputs flagged {@code analysis_output} write. */
  ANALYSIS
}
