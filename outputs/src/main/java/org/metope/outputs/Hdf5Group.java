package org.metope.outputs;

import io.jhdf.ObjectHeader;
import io.jhdf.object.message.AttributeInfoMessage;
import io.jhdf.object.message.AttributeMessage;
import io.jhdf.object.message.GroupInfoMessage;
import io.jhdf.object.message.LinkInfoMessage;
import io.jhdf.object.message.LinkMessage;
import io.jhdf.object.message.Message;
import io.jhdf.storage.HdfFileChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group of a file being written ({@link Hdf5File}): its attributes, typed as Parthenon types
 * them ({@link Hdf5Attribute}), and its child groups and {@link FlatDataset}s, in the order they
 * were added. Written as a version 2 object header with compact links (as jhdf writes groups),
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
   * Writes this group's header at {@code position} and its children after it; with {@code
   * placeHeap}, the file's string heap goes between the header and the children. Returns the end
   * of what was written.
   */
  long write(HdfFileChannel channel, long position, boolean placeHeap) throws IOException {
    long next = position + header(position, null).remaining();
    if (placeHeap && !heap.isEmpty()) {
      heap.write(channel.getFileChannel(), next);
      next += heap.size();
    }
    List<Long> addresses = new ArrayList<>();
    for (Object child : children.values()) {
      addresses.add(next);
      next = child instanceof Hdf5Group g ? g.write(channel, next, false)
          : ((FlatDataset) child).write(channel, next);
    }
    Hdf5File.writeFully(channel.getFileChannel(), header(position, addresses), position);
    return next;
  }

  /** The object header; with null addresses (for sizing) every link points at 0. */
  private ByteBuffer header(long position, List<Long> addresses) {
    List<Message> messages = new ArrayList<>();
    messages.add(GroupInfoMessage.createBasic());
    messages.add(LinkInfoMessage.createBasic());
    int n = 0;
    for (String name : children.keySet()) {
      messages.add(LinkMessage.create(name, addresses == null ? 0L : addresses.get(n++)));
    }
    if (!attributes.isEmpty()) {
      messages.add(AttributeInfoMessage.create());
      for (Hdf5Attribute a : attributes.values()) {
        messages.add(AttributeMessage.create(a.getName(), a));
      }
    }
    return new ObjectHeader.ObjectHeaderV2(position, messages).toBuffer();
  }
}
