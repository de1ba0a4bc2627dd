package org.metope.outputs;

import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexShape;

/**
 * Reads a restart file's field values back into this rank's blocks (the field part of Parthenon's
 * {@code RestartReaderHDF5}): every {@code INDEPENDENT} or {@code RESTART} field, one dataset per
 * field read as one slice of this rank's blocks; a sparse field only on the blocks {@code
 * SparseInfo} marks allocated, with its deallocation counter from {@code SparseDeallocCount}.
 */
final class FieldRestart {
  private FieldRestart() {}

  static void restore(RestartFile file, Mesh mesh) {
    List<LogicalLocation> locations = file.locations();
    if (!mesh.locations().equals(locations)) {
      throw file.mismatch("its " + locations.size() + " blocks differ from the mesh the deck"
          + " builds (" + mesh.totalBlocks() + " blocks)");
    }
    IndexShape cells = PhdfWriter.blockShape(mesh);
    boolean includesGhost = file.includesGhost();
    List<OutputVariable> variables =
        OutputVariable.selectForRestart(mesh.resolvedPackages(), cells, includesGhost);
    Map<String, Integer> sparseColumns = sparseColumns(file);
    byte[] allocated = sparseColumns.isEmpty() ? new byte[0]
        : RestartFile.byteArray(file.dataset("SparseInfo"));
    Dataset countsDataset = sparseColumns.isEmpty() ? null
        : file.optionalDataset("SparseDeallocCount");
    int[] deallocCounts = countsDataset == null ? null : RestartFile.intArray(countsDataset);
    if (deallocCounts != null && deallocCounts.length != allocated.length) {
      throw file.unusable("SparseDeallocCount has " + deallocCounts.length + " values, SparseInfo "
          + allocated.length);
    }
    int first = mesh.distribution().firstGid(mesh.myRank());
    int count = mesh.blocks().size();
    FieldStorage storage = mesh.fields();
    for (OutputVariable v : variables) {
      Dataset dataset = fieldDataset(file, v, mesh.totalBlocks());
      if (v.field().isSparse() != sparseColumns.containsKey(v.label())) {
        throw file.mismatch("field " + v.label() + " is " + (v.field().isSparse() ? "" : "not ")
            + "sparse in the run but not in the file");
      }
      if (count == 0) {
        continue;
      }
      double[] values = readBlocks(dataset, first, count);
      int perBlock = v.valuesPerBlock();
      RestartChecks.requireFinite(file.path(), v.label(), values, perBlock, first);
      for (int b = 0; b < count; b++) {
        if (v.field().isSparse()) {
          int column = sparseColumns.get(v.label());
          int slot = (first + b) * sparseColumns.size() + column;
          if (allocated[slot] == 0) {
            continue;
          }
          storage.allocateSparse(v.field().id(), b);
          if (deallocCounts != null) {
            // Parthenon restores the counter too, so a field is freed on the cycle it would be.
            storage.setDeallocationCount(v.field().id(), b, deallocCounts[slot]);
          }
        }
        v.unpack(storage, 0, b, cells, includesGhost, values, b * perBlock);
      }
    }
  }

  /** The dataset of {@code v}, checked to hold {@code totalBlocks} blocks of its shape. */
  private static Dataset fieldDataset(RestartFile file, OutputVariable v, int totalBlocks) {
    if (!(file.node(v.label()) instanceof Dataset dataset)) {
      throw file.mismatch("it has no field " + v.label());
    }
    int[] expected = new int[v.blockDimensions().length + 1];
    expected[0] = totalBlocks;
    System.arraycopy(v.blockDimensions(), 0, expected, 1, expected.length - 1);
    if (!Arrays.equals(dataset.getDimensions(), expected)) {
      throw file.mismatch("field " + v.label() + " has dimensions "
          + Arrays.toString(dataset.getDimensions()) + ", the run needs "
          + Arrays.toString(expected));
    }
    return dataset;
  }

  /** The column of each sparse field in {@code SparseInfo}, by label (none: empty). */
  private static Map<String, Integer> sparseColumns(RestartFile file) {
    Map<String, Integer> columns = new HashMap<>();
    Node node = file.node("SparseInfo");
    if (node == null) {
      return columns;
    }
    Attribute attribute = node.getAttribute("SparseFields");
    Object names = attribute == null ? null : attribute.getData();
    if (names instanceof String single) {
      columns.put(single, 0);
    } else if (!(names instanceof String[] all)) {
      throw file.unusable("SparseInfo has no SparseFields attribute listing the sparse fields");
    } else {
      for (int n = 0; n < all.length; n++) {
        columns.put(all[n], n);
      }
    }
    return columns;
  }

  /** Blocks {@code [first, first + count)} of {@code dataset}, flattened in dataset order. */
  private static double[] readBlocks(Dataset dataset, int first, int count) {
    int[] dims = dataset.getDimensions();
    long[] offset = new long[dims.length];
    offset[0] = first;
    int[] size = dims.clone();
    size[0] = count;
    Object nested = dataset.getData(offset, size);
    int total = 1;
    for (int d : size) {
      total *= d;
    }
    double[] out = new double[total];
    int n = RestartFile.flatten(nested, out, 0);
    if (n != total) {
      throw new IllegalStateException("dataset " + dataset.getName() + " gave " + n
          + " values for " + total);
    }
    return out;
  }
}
