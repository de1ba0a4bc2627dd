package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an HDF5 file Metope wrote holds, for comparing runs on different rank counts: every
 * dataset's stored bytes and every attribute's value by path ({@code /Info/@NCycle}), except what
 * depends on the rank count or the clock: {@code Info/BlocksPerPE}, {@code Info/WallTime} and the
 * local ids in {@code Blocks/loc.level-gid-lid-cnghost-gflag}. The checksum attributes of the
 * datasets ({@code MetopeDataCRC32C}) are compared like any other.
 */
public final class PhdfContents {
  private static final List<String> RANK_DEPENDENT = List.of("/Info/@BlocksPerPE",
      "/Info/@WallTime", "/Blocks/loc.level-gid-lid-cnghost-gflag");

  private PhdfContents() {}

  /** The contents of {@code file}, by path; each value is wrapped in a one-element list. */
  public static Map<String, List<Object>> of(Path file) {
    Map<String, List<Object>> out = new TreeMap<>();
    try (HdfFile h5 = new HdfFile(file)) {
      collect(h5, out);
    }
    return out;
  }

  private static void collect(Node node, Map<String, List<Object>> out) {
    boolean rankDependent = RANK_DEPENDENT.contains(node.getPath());
    for (Map.Entry<String, Attribute> a : node.getAttributes().entrySet()) {
      String path = node.getPath() + "@" + a.getKey();
      if (!rankDependent && !RANK_DEPENDENT.contains(path)) {
        out.put(path, List.of(a.getValue().getData()));
      }
    }
    if (node instanceof ContiguousDataset d && !rankDependent) {
      ByteBuffer buffer = d.getBuffer();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      out.put(node.getPath(), List.of(bytes));
    } else if (node instanceof Group g) {
      for (Node child : g.getChildren().values()) {
        collect(child, out);
      }
    }
  }

  /** Asserts that {@code actual} has the paths of {@code expected}, each with an equal value. */
  public static void assertSame(Map<String, List<Object>> expected,
      Map<String, List<Object>> actual, String what) {
    assertEquals(expected.keySet(), actual.keySet(), what);
    for (String key : expected.keySet()) {
      assertTrue(Objects.deepEquals(expected.get(key).get(0), actual.get(key).get(0)),
          what + ": " + key);
    }
  }
}
