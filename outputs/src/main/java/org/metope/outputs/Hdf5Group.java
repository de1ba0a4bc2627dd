package org.metope.outputs;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group of a file being written ({@link Hdf5File}): its attributes, typed as Parthenon types
 * them ({@link Hdf5Attribute}), and its child groups and {@link FlatDataset}s, in the order they
 * were added. Written as a version 2 object header with compact links ({@link Hdf5Header}),
 * followed by its children, depth first.
 */
final class Hdf5Group {
  private final StringHeap heap;
  private final Map<String, Object> children = new LinkedHashMap<>();
  private final Map<String, Hdf5Attribute> attributes = new LinkedHashMap<>();

  Hdf5Group(StringHeap heap) {
    this.heap = heap;
  }

  /** A new, empty child group. */
  Hdf5Group group(String name) {
    Hdf5Group group = new Hdf5Group(heap);
    addChild(name, group);
    return group;
  }

  /** Adds {@code dataset} under its name. */
  void add(FlatDataset dataset) {
    addChild(dataset.getName(), dataset);
  }

  private void addChild(String name, Object child) {
    if (children.putIfAbsent(name, child) != null) {
      throw new IllegalArgumentException("a group holds one child named " + name);
    }
  }

  /** Sets attribute {@code a}, replacing one of the same name. */
  void put(Hdf5Attribute a) {
    attributes.put(a.getName(), a);
  }

  /** 32-bit signed integers (Parthenon's {@code int}). */
  void putInts(String name, int... values) {
    put(Hdf5Attribute.ints(name, values));
  }

  /** 64-bit floats. */
  void putDoubles(String name, double... values) {
    put(Hdf5Attribute.doubles(name, values));
  }

  /** Variable-length strings. */
  void putStrings(String name, String... values) {
    put(stringAttribute(name, values));
  }

  /** A variable-length string attribute for a dataset of this file. */
  Hdf5Attribute stringAttribute(String name, String... values) {
    return Hdf5Attribute.strings(name, heap, values);
  }

  /**
   * Lays this group out at the end of {@code image}: its header, then (with {@code placeHeap}) the
   * file's string heap, then its children, depth first; the header is written last, when the
   * children's addresses are known. Returns the end of what was laid out.
   */
  long write(Hdf5Image image, boolean placeHeap) {
    long position = image.end();
    byte[][] names = new byte[children.size()][];
    int n = 0;
    int bodies = Hdf5Header.GROUP_INFO_SIZE + Hdf5Header.LINK_INFO_SIZE;
    for (String name : children.keySet()) {
      names[n] = name.getBytes(StandardCharsets.UTF_8);
      bodies += Hdf5Header.linkSize(names[n++]);
    }
    int messages = 2 + names.length;
    if (!attributes.isEmpty()) {
      messages += 1 + attributes.size();
      bodies += Hdf5Header.ATTRIBUTE_INFO_SIZE;
      for (Hdf5Attribute a : attributes.values()) {
        bodies += a.messageSize();
      }
    }
    int length = Hdf5Header.length(messages, bodies);
    image.append(length);
    if (placeHeap && !heap.isEmpty()) {
      heap.write(image);
    }
    long[] addresses = new long[names.length];
    n = 0;
    for (Object child : children.values()) {
      addresses[n++] = image.end();
      if (child instanceof Hdf5Group g) {
        g.write(image, false);
      } else {
        ((FlatDataset) child).write(image);
      }
    }
    Hdf5Header h = new Hdf5Header(image, position, length).groupInfo().linkInfo();
    for (n = 0; n < names.length; n++) {
      h.link(names[n], addresses[n]);
    }
    if (!attributes.isEmpty()) {
      h.attributeInfo();
      for (Hdf5Attribute a : attributes.values()) {
        a.encode(h, image);
      }
    }
    h.finish();
    return image.end();
  }
}
