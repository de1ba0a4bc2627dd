package org.metope.mesh.input;

import java.util.Collection;
import java.util.function.Function;

/**
 * Prints an effective deck in Parthenon's {@code ParameterDump} layout: a marker line, each block
 * header followed by its keys with names, {@code =} signs and comments aligned, a closing marker
 * and {@code <par_end>}. The text reads back through {@link DeckParser} to the same values.
 */
final class DeckWriter {
  static final String MARKER = "#------------------------- PAR_DUMP -------------------------";

  private DeckWriter() {}

  /**
   * The whole deck: the marker, the section of each block in {@code blockNames} ({@code
   * sectionOf}, as {@link #section} prints it), the closing marker and {@code <par_end>}.
   */
  static String write(Collection<String> blockNames, Function<String, String> sectionOf) {
    StringBuilder out = new StringBuilder();
    out.append(MARKER).append('\n');
    for (String block : blockNames) {
      out.append(sectionOf.apply(block));
    }
    out.append(MARKER).append('\n');
    out.append("<par_end>\n");
    return out.toString();
  }

  /** One block's header and its keys, names, {@code =} signs and comments aligned. */
  static String section(String block, Collection<Parameter> params) {
    StringBuilder out = new StringBuilder();
    out.append('<').append(block).append(">\n");
    int nameWidth = 0;
    int valueWidth = 0;
    for (Parameter p : params) {
      nameWidth = Math.max(nameWidth, p.key.length());
      valueWidth = Math.max(valueWidth, p.value.length());
    }
    for (Parameter p : params) {
      int start = out.length();
      pad(out.append(p.key), start + nameWidth + 1).append("= ");
      int value = out.length();
      pad(out.append(p.value), value + valueWidth + 1).append(p.comment);
      int end = out.length();
      while (end > start && Character.isWhitespace(out.charAt(end - 1))) {
        end--;
      }
      out.setLength(end);
      out.append('\n');
    }
    return out.toString();
  }

  /** Appends spaces to {@code out} until it is {@code length} characters long. */
  private static StringBuilder pad(StringBuilder out, int length) {
    while (out.length() < length) {
      out.append(' ');
    }
    return out;
  }
}
