package org.metope.outputs;

import java.util.List;

/**
 * The settings of one {@code <parthenon/outputN>} block (Parthenon's {@code OutputParameters}),
 * with the counters an output advances as it writes.
 *
 * @param blockName the deck block, e.g. {@code parthenon/output3}
 * @param blockNumber N of the block name
 * @param fileType {@code hst}, {@code hdf5}, ...
 * @param dt time between outputs; 0 or negative for none (then {@code dn} paces the output)
 * @param dn cycles between outputs ({@code dn}, Parthenon's cycle cadence); 0 or negative for none
 * @param fileBasename {@code <parthenon/job> problem_id}
 * @param fileId the part of the file name after the basename, {@code outN} unless {@code id} is
 *     set
 * @param dataFormat the C format of one value, with a blank prepended (history columns)
 * @param packages packages whose history outputs are written; empty for all
 * @param analysisOutput whether an analysis-only run writes it
 */
public record OutputParameters(
    String blockName,
    int blockNumber,
    String fileType,
    double dt,
    int dn,
    String fileBasename,
    String fileId,
    String dataFormat,
    List<String> packages,
    boolean analysisOutput) {

  /** Copies the package list. */
  public OutputParameters {
    packages = List.copyOf(packages);
  }
}
