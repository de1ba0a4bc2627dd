package org.metope.mesh.input;

/**
 * Reads Parthenon's deck text into a {@link ParameterInput}.
 *
 * <pre>
 * &lt;parthenon/mesh&gt;          # a block header on a line of its own
 * nx1 = 64                   # key = value; '#' starts a comment anywhere on a line
 * x1min = -0.5
 * refine_vars = density, &amp;  # '&amp;' continues the value on the next line
 *               energy
 * &lt;par_end&gt;                  # optional: nothing after it is read
 * </pre>
 *
 * <p>A key given twice keeps its first position and takes the last value, and a block header
 * given twice continues the same block, as in Parthenon; each with a warning naming both lines
 * ({@link ParameterInput#warnings}). Unlike Parthenon, which skips some
 * malformed lines silently, every malformed line here is an {@link InputError} naming the file and
 * line: a header without {@code >}, an empty block name, text after a header, a line before the
 * first header, a line without {@code =}, an empty key, text after {@code &}, a header or a new
 * key inside a continued value, and a continued value at the end of the deck.
 */
final class DeckParser {
  private final String deckName;
  private final ParameterInput target;
  private String block;
  private int lineNumber;
  /** The key whose value continues on the next line, or null. */
  private String pendingKey;
  private int pendingLine;
  private final StringBuilder pendingValue = new StringBuilder();
  private final StringBuilder pendingComment = new StringBuilder();

  private DeckParser(String deckName, ParameterInput target) {
    this.deckName = deckName;
    this.target = target;
  }

  /** Parses {@code text} (the contents of the deck named {@code deckName}) into {@code target}. */
  static void parse(String deckName, String text, ParameterInput target) {
    DeckParser parser = new DeckParser(deckName, target);
    // A byte order mark, which some editors put at the start of a UTF-8 file, is not content.
    String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
    String[] lines = body.split("\n", -1);
    for (String line : lines) {
      parser.lineNumber++;
      if (!parser.readLine(line)) {
        break;
      }
    }
    if (parser.pendingKey != null) {
      throw InputError.at(deckName + ":" + parser.pendingLine,
          parser.pendingPath() + " = \"" + parser.pendingValue + "\"",
          "another line after the continuation '&', but the deck ends");
    }
  }

  /** Reads one line; returns false at {@code <par_end>}. */
  private boolean readLine(String rawLine) {
    String line = clean(rawLine);
    int hash = line.indexOf('#');
    String comment = hash >= 0 ? line.substring(hash).strip() : "";
    String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
    if (content.isEmpty()) {
      return true;
    }
    if (content.startsWith("<par_end>")) {
      return false;
    }
    if (content.startsWith("<")) {
      readHeader(content);
    } else if (block == null) {
      throw error("\"" + content + "\"",
          "a block header such as <parthenon/mesh> before the first key = value line");
    } else if (pendingKey != null) {
      continueValue(content, comment);
    } else {
      startValue(content, comment);
    }
    return true;
  }

  /** Parthenon drops control whitespace; tabs separate like spaces. */
  private static String clean(String line) {
    StringBuilder out = new StringBuilder(line.length());
    for (int c = 0; c < line.length(); c++) {
      char ch = line.charAt(c);
      if (ch == '\t') {
        out.append(' ');
      } else if (ch != '\r' && ch != '\f' && ch != '\u000b') {
        out.append(ch);
      }
    }
    return out.toString();
  }

  private void readHeader(String content) {
    if (pendingKey != null) {
      throw error("block header " + content + " inside the value of " + pendingPath()
          + " continued with '&'", "the continued value to end first");
    }
    int close = content.indexOf('>');
    if (close < 0) {
      throw error("block header \"" + content + "\"", "'>' closing the block name");
    }
    String name = content.substring(1, close).strip();
    if (name.isEmpty()) {
      throw error("block header \"" + content + "\"", "a block name between '<' and '>'");
    }
    String rest = content.substring(close + 1).strip();
    if (!rest.isEmpty()) {
      throw error("\"" + rest + "\" after block header <" + name + ">",
          "nothing but a comment after '>'");
    }
    block = name;
    target.declareBlock(name, lineNumber);
  }

  private void startValue(String content, String comment) {
    int equals = content.indexOf('=');
    if (equals < 0) {
      throw error("\"" + content + "\" in block <" + block + ">", "key = value");
    }
    String key = content.substring(0, equals).strip();
    if (key.isEmpty()) {
      throw error("\"" + content + "\" in block <" + block + ">", "a key name before '='");
    }
    pendingKey = key;
    pendingLine = lineNumber;
    pendingValue.setLength(0);
    pendingComment.setLength(0);
    appendValue(content.substring(equals + 1), comment);
  }

  private void continueValue(String content, String comment) {
    if (content.indexOf('=') >= 0) {
      throw error("\"" + content + "\" continuing " + pendingPath() + " after '&'",
          "a value, not a new key = value (is there a stray '&' on the line before?)");
    }
    appendValue(content, comment);
  }

  /** Appends a value fragment; stores the parameter when the fragment does not end in '&'. */
  private void appendValue(String fragment, String comment) {
    int amp = fragment.indexOf('&');
    boolean continues = amp >= 0;
    if (continues) {
      String after = fragment.substring(amp + 1).strip();
      if (!after.isEmpty()) {
        throw error(pendingPath() + " = \"" + fragment.strip() + "\"",
            "nothing but a comment after the continuation '&'");
      }
      fragment = fragment.substring(0, amp);
    }
    pendingValue.append(fragment.strip());
    if (!comment.isEmpty()) {
      if (pendingComment.length() > 0) {
        pendingComment.append(' ');
      }
      pendingComment.append(comment);
    }
    if (!continues) {
      target.addParsed(block, pendingKey, pendingValue.toString(), pendingComment.toString(),
          pendingLine);
      pendingKey = null;
    }
  }

  private String pendingPath() {
    return block + "/" + pendingKey;
  }

  private InputError error(String what, String expected) {
    return InputError.at(deckName + ":" + lineNumber, what, expected);
  }
}
