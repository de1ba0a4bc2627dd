package org.metope.mesh.field;

import java.util.List;

/**
 * A column (or group of columns) of the history file (Parthenon's {@code HistoryOutputVar} and
 * {@code HistoryOutputVec}): a per-block function and the operation that reduces it over every
 * block of the mesh.
 *
 * <p>Functions are evaluated per block, not per partition, so that the reduction can run in
 * global block order on any number of ranks: a sum is then the same bits on 1 or N ranks. A
 * running sum ({@link #runningSum}) goes further: its function adds a block's terms one by one
 * to a total carried from block to block in global block order, which reproduces one reduction
 * over a whole rank's pack of blocks, as Parthenon's single-rank runs add them.
 *
 * <p>With {@code <metope> threads} above 1, scalar and vector functions of different partitions
 * run on the task threads at the same time (as a package's derived-field callbacks do), so they
 * must not share mutable state; running sums stay on one thread, in global block order.
 *
 * @param operation how block values combine over the mesh
 * @param label the column label; vector outputs get one column per component, {@code label_c}
 * @param numComponents 1 for a scalar output, the vector length otherwise
 * @param scalar the function of a scalar output, null for a vector output
 * @param vector the function of a vector output, null for a scalar output
 * @param running the function of a running sum (then {@code scalar} and {@code vector} are null),
 *     null otherwise
 */
public record HistoryOutput(
    Operation operation,
    String label,
    int numComponents,
    BlockFunction scalar,
    BlockVectorFunction vector,
    BlockRunningSum running) {

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

  /** A scalar summed term by term in one total carried across blocks in global block order. */
  @FunctionalInterface
  public interface BlockRunningSum {
    /**
     * {@code total} plus the terms of block {@code block} (0-based within {@code md}), added one
     * by one in the block's own order.
     */
    double add(MeshData md, int block, double total);
  }

  /** Checks the record's invariants. */
  public HistoryOutput {
    if (operation == null || label == null || label.isBlank()) {
      throw new IllegalArgumentException("history output needs an operation and a label (label="
          + label + ", operation=" + operation + ")");
    }
    int functions = (scalar == null ? 0 : 1) + (vector == null ? 0 : 1) + (running == null ? 0 : 1);
    if (functions != 1) {
      throw new IllegalArgumentException("history output label=" + label
          + " needs exactly one of a scalar, a vector or a running-sum function");
    }
    if (running != null && (operation != Operation.SUM || numComponents != 1)) {
      throw new IllegalArgumentException("history output label=" + label
          + " is a running sum: its operation must be SUM and it has one component");
    }
    if (numComponents < 1 || (vector == null && numComponents != 1)) {
      throw new IllegalArgumentException("history output label=" + label + " numComponents="
          + numComponents + " must be 1 for a scalar output and at least 1 for a vector one");
    }
  }

  /** A scalar output. */
  public static HistoryOutput of(Operation operation, String label, BlockFunction function) {
    return new HistoryOutput(operation, label, 1, function, null, null);
  }

  /** A scalar sum added term by term in one total across blocks in global block order. */
  public static HistoryOutput runningSum(String label, BlockRunningSum function) {
    return new HistoryOutput(Operation.SUM, label, 1, null, null, function);
  }

  /** A vector output of {@code numComponents} columns {@code label_0, label_1, ...}. */
  public static HistoryOutput vector(Operation operation, String label, int numComponents,
      BlockVectorFunction function) {
    return new HistoryOutput(operation, label, numComponents, null, function, null);
  }

  /** The column labels: {@code label} for a scalar, {@code label_0 ...} for a vector. */
  public List<String> columnLabels() {
    if (vector == null) {
      return List.of(label);
    }
    String[] labels = new String[numComponents];
    for (int c = 0; c < numComponents; c++) {
      labels[c] = label + "_" + c;
    }
    return List.of(labels);
  }
}
