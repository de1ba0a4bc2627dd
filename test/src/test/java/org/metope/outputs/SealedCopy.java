package org.metope.outputs;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Test tool: copies a Metope HDF5 file group by group with some attributes replaced, and seals the
 * copy as Metope does, to make what a future version or a hand edit (re-sealed) would produce.
 * Lives in the writer's package to write with {@link Hdf5File} and {@link FlatDataset} as the
 * writer does; each attribute keeps the type jhdf read it as (a replacement's Java type chooses
 * its own).
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
    try (HdfFile in = new HdfFile(from);
        FileChannel file = FileChannel.open(to, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        Hdf5File out = Hdf5File.create(to, file)) {
      copyAttributes(in, out.root(), out.root()::put, "", changes);
      copyChildren(in, out.root(), "", changes, reserved);
    }
    try (FileChannel channel = FileChannel.open(to, StandardOpenOption.WRITE)) {
      for (Map.Entry<FlatDataset, double[]> r : reserved.entrySet()) {
        DatasetFill fill = r.getKey().fill(channel,
            DatasetFill.buffer(r.getKey().getSizeInBytes()));
        fill.append(r.getValue(), 0, r.getValue().length);
        r.getKey().completeHeader(channel, fill.checksum());
      }
    }
    FileSeal.append(to, List.of());
  }

  private static void copyChildren(Group in, Hdf5Group out, String prefix,
      Map<String, Object> changes, Map<FlatDataset, double[]> reserved) {
    for (Node node : in.getChildren().values()) {
      String path = prefix + node.getName();
      if (node instanceof Group group) {
        Hdf5Group copy = out.group(node.getName());
        copyAttributes(group, copy, copy::put, path + "/", changes);
        copyChildren(group, copy, path + "/", changes, reserved);
      } else if (node instanceof Dataset dataset) {
        FlatDataset copy = flat(dataset, changes.getOrDefault(path, dataset.getDataFlat()),
            reserved);
        copyAttributes(dataset, out, copy::put, path + "/", changes);
        out.add(copy);
      }
    }
  }

  /**
   * The copy of {@code dataset}; a single precision one is reserved, with its values put in
   * {@code reserved} for after the file is laid out.
   */
  private static FlatDataset flat(Dataset dataset, Object data,
      Map<FlatDataset, double[]> reserved) {
    int[] dims = dataset.getDimensions();
    String name = dataset.getName();
    if (data instanceof double[] d) {
      return FlatDataset.of(name, d, dims);
    }
    if (data instanceof float[] f) {
      double[] d = new double[f.length];
      for (int n = 0; n < f.length; n++) {
        d[n] = f[n];
      }
      FlatDataset copy = FlatDataset.reserved(name, true, dims);
      reserved.put(copy, d);
      return copy;
    }
    if (data instanceof long[] l) {
      return FlatDataset.of(name, l, dims);
    }
    if (data instanceof int[] i && ((FixedPoint) dataset.getDataType()).isSigned()) {
      return FlatDataset.of(name, i, dims);
    }
    if (data instanceof byte[] b) {
      return FlatDataset.of(name, b, dims);
    }
    int[] unsigned = (int[]) data;
    byte[] b = new byte[unsigned.length];
    for (int n = 0; n < b.length; n++) {
      b[n] = (byte) unsigned[n];
    }
    return FlatDataset.of(name, b, dims);
  }

  private static void copyAttributes(Node in, Hdf5Group file, Consumer<Hdf5Attribute> out,
      String prefix, Map<String, Object> changes) {
    for (Map.Entry<String, Attribute> a : in.getAttributes().entrySet()) {
      String name = a.getKey();
      if (name.equals(FlatDataset.CHECKSUM_ATTRIBUTE)) {
        continue;
      }
      Object change = changes.get(prefix + name);
      out.accept(change != null ? typed(file, name, change, null)
          : typed(file, name, a.getValue().getData(), a.getValue().getDataType()));
    }
  }

  /**
   * An attribute holding {@code value}: of {@code type} where given (the original's), else of the
   * type {@code value}'s Java type stands for (strings, {@code int}, {@code long}, doubles).
   */
  private static Hdf5Attribute typed(Hdf5Group file, String name, Object value,
      DataType type) {
    Object values = value.getClass().isArray() ? value : wrap(value);
    int n = Array.getLength(values);
    if (values instanceof String[] s) {
      return file.stringAttribute(name, s);
    }
    if (values instanceof double[] d) {
      return Hdf5Attribute.doubles(name, d);
    }
    long[] longs = new long[n];
    for (int i = 0; i < n; i++) {
      longs[i] = ((Number) Array.get(values, i)).longValue();
    }
    if (type instanceof FixedPoint f) {
      return Hdf5Attribute.integers(name, f.getSize() == 1 ? Hdf5Type.UINT8 : f.getSize() == 4
          ? Hdf5Type.INT32 : f.isSigned() ? Hdf5Type.INT64 : Hdf5Type.UINT64, longs);
    }
    Object first = Array.get(values, 0);
    return Hdf5Attribute.integers(name, first instanceof Long ? Hdf5Type.INT64 : Hdf5Type.INT32,
        longs);
  }

  private static Object wrap(Object scalar) {
    if (scalar instanceof String s) {
      return new String[] {s};
    }
    if (scalar instanceof Double d) {
      return new double[] {d};
    }
    return new Object[] {scalar};
  }
}
