package org.metope.mesh.input;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a deck: its blocks and their {@link Parameter}s, in order of first appearance
 * (deck, then command line, then defaults and sets in the order the program made them), with the
 * line of each block's header. Only storage: what the program asked for is kept by {@link
 * ParameterRequests}, conversions are {@link ValueParser}'s, and {@link ParameterInput} is the
 * door the rest of the program uses.
 */
final class DeckBlocks {
  private final Map<String, Map<String, Parameter>> blocks = new LinkedHashMap<>();
  private final Map<String, Integer> headerLines = new HashMap<>();
  /**
   * Each block's section of the effective deck as {@link DeckWriter#section} printed it, until a
   * value of the block changes: an output writes the deck into every file, and between two files
   * only the outputs' counters and the clock change.
   */
  private final Map<String, String> sections = new HashMap<>();

  /** A block header at deck line {@code line}; a block named twice keeps its first line. */
  void declare(String block, int line) {
    blocks.computeIfAbsent(block, b -> new LinkedHashMap<>());
    headerLines.putIfAbsent(block, line);
  }

  /** Sets {@code block/key}, creating the block and the key when needed. */
  void put(String block, String key, String value, String comment, Parameter.Origin origin,
      int line) {
    Map<String, Parameter> params = blocks.computeIfAbsent(block, b -> new LinkedHashMap<>());
    sections.remove(block);
    Parameter existing = params.get(key);
    if (existing == null) {
      params.put(key, new Parameter(block, key, value, comment, origin, line));
    } else {
      existing.assign(value, comment, origin, line);
    }
  }

  /** The parameter {@code block/key}, or null. */
  Parameter find(String block, String key) {
    Map<String, Parameter> params = blocks.get(block);
    return params == null ? null : params.get(key);
  }

  boolean hasBlock(String block) {
    return blocks.containsKey(block);
  }

  boolean has(String block, String key) {
    return find(block, key) != null;
  }

  /** Every block name, in order of first appearance. */
  List<String> names() {
    return List.copyOf(blocks.keySet());
  }

  /** Block names starting with {@code prefix}, in order of first appearance. */
  List<String> namesWithPrefix(String prefix) {
    List<String> names = new ArrayList<>();
    for (String name : blocks.keySet()) {
      if (name.startsWith(prefix)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The keys of {@code block} in order of first appearance; empty when there is no block. */
  List<String> keys(String block) {
    Map<String, Parameter> params = blocks.get(block);
    return params == null ? List.of() : List.copyOf(params.keySet());
  }

  /** The parameters of an existing block, in order of first appearance. */
  Collection<Parameter> parametersOf(String block) {
    return blocks.get(block).values();
  }

  /** The effective deck's section of an existing block ({@link DeckWriter#section}). */
  String sectionOf(String block) {
    String section = sections.get(block);
    if (section == null) {
      section = DeckWriter.section(block, parametersOf(block));
      sections.put(block, section);
    }
    return section;
  }

  /** Every parameter of every block, blocks and keys in order of first appearance. */
  List<Parameter> all() {
    List<Parameter> all = new ArrayList<>();
    for (Map<String, Parameter> params : blocks.values()) {
      all.addAll(params.values());
    }
    return all;
  }

  /** The deck line of a block's header, or null when the block has none (added later). */
  Integer headerLine(String block) {
    return headerLines.get(block);
  }
}
