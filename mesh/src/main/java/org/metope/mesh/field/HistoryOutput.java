package org.metope.mesh.field;

import java.util.List;

/**
 * A column (or group of columns) of the history file (Parthenon's {@code HistoryOutputVar} and
 * {@code HistoryOutputVec}): a per-block function and the operation that reduces it over every
 * block of the mesh.
 *
 * <p>Functions are evaluated per block, not per partition, so that the reduction can run in
 * global block order on any number of ranks: a sum is then the same bits on 1 or N ranks.
 *
 * @param operation how block values combine over the mesh
 * @param label the column label; vector outputs get one column per component, {@code label_c}
 * @param numComponents 1 for a scalar output, the vector length otherwise
 * @param scalar the function of a scalar output, null for a vector output
 * @param vector the function of a vector output, null for a scalar output
 */
public record HistoryOutput(
    Operation operation,
    String label,
    int numComponents,
    BlockFunction scalar,
    BlockVectorFunction vector) {

  /** How block values combine (Parthenon's {@code UserHistoryOperation}). */
  public enum Operation {
    /** Sum over blocks, in global block order. */
    SUM,
    /** Minimum over blocks. */
    MIN,
    /** Maximum over blocks. */
    MAX
  }

  /** The value of a scalar output on one block. */
  @FunctionalInterface
  public interface BlockFunction {
    /** The value on block {@code block} (0-based within {@code md}). */
    double value(MeshData md, int block);
  }

  /** The values of a vector output on one block. */
  @FunctionalInterface
  public interface BlockVectorFunction {
    /** Writes the {@code out.length} values on block {@code block} (0-based within {@code md}). */
    void values(MeshData md, int block, double[] out);
  }

  /** Checks the record's invariants. */
  public HistoryOutput {
    if (operation == null || label == null || label.isBlank()) {
      throw new IllegalArgumentException("history output needs an operation and a label (label="
          + label + ", operation=" + operation + ")");
    }
    if ((scalar == null) == (vector == null)) {
      throw new IllegalArgumentException("history output label=" + label
          + " needs exactly one of a scalar or a vector function");
    }
    if (numComponents < 1 || (scalar != null && numComponents != 1)) {
      throw new IllegalArgumentException("history output label=" + label + " numComponents="
          + numComponents + " must be 1 for a scalar output and at least 1 for a vector one");
    }
  }

  /** A scalar output. */
  public static HistoryOutput of(Operation operation, String label, BlockFunction function) {
    return new HistoryOutput(operation, label, 1, function, null);
  }

  /** A vector output of {@code numComponents} columns {@code label_0, label_1, ...}. */
  public static HistoryOutput vector(Operation operation, String label, int numComponents,
      BlockVectorFunction function) {
    return new HistoryOutput(operation, label, numComponents, null, function);
  }

  /** The column labels: {@code label} for a scalar, {@code label_0 ...} for a vector. */
  public List<String> columnLabels() {
    if (scalar != null) {
      return List.of(label);
    }
    String[] labels = new String[numComponents];
    for (int c = 0; c < numComponents; c++) {
      labels[c] = label + "_" + c;
    }
    return List.of(labels);
  }
}
