package org.metope.outputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.api.WritableGroup;
import io.jhdf.api.WritableNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test tool: copies a Metope HDF5 file group by group with some attributes replaced, and seals the
 * copy as Metope does, to make what a future version or a hand edit (re-sealed) would produce.
 * Lives in the writer's package to write datasets with {@link FlatDataset} as the writer does.
 */
public final class SealedCopy {
  private SealedCopy() {}

  /**
   * Copies {@code from} to {@code to}, replacing the attributes and datasets named by path
   * ({@code "Info/Time"}, {@code "Blocks/loc.lx123"}: its values, flat) in {@code changes} with
   * their values, and seals {@code to}.
   */
  public static void copy(Path from, Path to, Map<String, Object> changes) throws IOException {
    Map<FlatDataset, double[]> reserved = new LinkedHashMap<>();
    try (HdfFile in = new HdfFile(from); WritableHdfFile out = HdfFile.write(to)) {
      copyAttributes(in, out, "", changes);
      copyChildren(in, out, "", changes, reserved);
    }
    try (FileChannel channel = FileChannel.open(to, StandardOpenOption.WRITE)) {
      for (Map.Entry<FlatDataset, double[]> r : reserved.entrySet()) {
        DatasetFill fill = r.getKey().fill(channel);
        fill.append(r.getValue(), 0, r.getValue().length);
        r.getKey().completeHeader(channel, fill.checksum());
      }
    }
    FileSeal.append(to, List.of());
  }

  private static void copyChildren(Group in, WritableGroup out, String prefix,
      Map<String, Object> changes, Map<FlatDataset, double[]> reserved) {
    for (Node node : in.getChildren().values()) {
      String path = prefix + node.getName();
      if (node instanceof Group group) {
        WritableGroup copy = out.putGroup(node.getName());
        copyAttributes(group, copy, path + "/", changes);
        copyChildren(group, copy, path + "/", changes, reserved);
      } else if (node instanceof Dataset dataset) {
        FlatDataset copy = flat(out, dataset, changes.getOrDefault(path, dataset.getDataFlat()),
            reserved);
        copyAttributes(dataset, copy, path + "/", changes);
        out.putDataset(node.getName(), copy);
      }
    }
  }

  /**
   * The copy of {@code dataset}; a single precision one is reserved, with its values put in
   * {@code reserved} for after the file is laid out.
   */
  private static FlatDataset flat(Group parent, Dataset dataset, Object data,
      Map<FlatDataset, double[]> reserved) {
    int[] dims = dataset.getDimensions();
    String name = dataset.getName();
    if (data instanceof double[] d) {
      return FlatDataset.of(parent, name, d, dims);
    }
    if (data instanceof float[] f) {
      double[] d = new double[f.length];
      for (int n = 0; n < f.length; n++) {
        d[n] = f[n];
      }
      FlatDataset copy = FlatDataset.reserved(parent, name, true, dims);
      reserved.put(copy, d);
      return copy;
    }
    if (data instanceof long[] l) {
      return FlatDataset.of(parent, name, l, dims);
    }
    if (data instanceof int[] i) {
      return FlatDataset.of(parent, name, i, dims);
    }
    return FlatDataset.of(parent, name, (byte[]) data, dims);
  }

  private static void copyAttributes(Node in, WritableNode out, String prefix,
      Map<String, Object> changes) {
    for (Map.Entry<String, Attribute> a : in.getAttributes().entrySet()) {
      String name = a.getKey();
      if (name.equals("_jHDF") || name.equals(FlatDataset.CHECKSUM_ATTRIBUTE)) {
        continue;
      }
      Object value = changes.getOrDefault(prefix + name, a.getValue().getData());
      out.putAttribute(name, value);
    }
  }
}
