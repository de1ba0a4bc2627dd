package org.metope.outputs;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.metope.mesh.field.HistoryOutput;
import org.metope.outputs.HistoryFile.Column;

/**
 * The whole-mesh values of the history outputs that one output round has reduced so far, for the
 * history files written after them in the same round: a second history file of the same moment
 * (Parthenon's 2D adaptive deck has two, the second a package's selection of the first's columns,
 * written at every other output time) takes its columns from here instead of evaluating every
 * block and reducing over the ranks again. Each column's value depends on its own function alone
 * (sums are added per column in global block order, extrema and running sums per column too), so
 * a column taken from here has the bits it would have if its file had reduced it.
 *
 * <p>{@link Outputs} clears it when a round starts and after every other output, since user work
 * before an output and the outputs' derived fields may change what a function reads. So a
 * package's history functions run once per round for all the history files that show them.
 */
final class HistoryRound {
  private final Map<HistoryOutput, double[]> values = new IdentityHashMap<>();

  /** Forgets every value: the fields may have changed since they were reduced. */
  void clear() {
    values.clear();
  }

  /**
   * A record of {@code total} values with {@code columns} filled in, when each of their outputs
   * has been reduced in this round; null when one has not.
   */
  double[] take(List<Column> columns, int total) {
    for (Column c : columns) {
      if (!values.containsKey(c.output())) {
        return null;
      }
    }
    double[] record = new double[total];
    for (Column c : columns) {
      double[] v = values.get(c.output());
      System.arraycopy(v, 0, record, c.first(), v.length);
    }
    return record;
  }

  /** Keeps the values of {@code columns} in {@code record} for the rest of the round. */
  void keep(List<Column> columns, double[] record) {
    for (Column c : columns) {
      double[] v = new double[c.output().numComponents()];
      System.arraycopy(record, c.first(), v, 0, v.length);
      values.put(c.output(), v);
    }
  }
}
