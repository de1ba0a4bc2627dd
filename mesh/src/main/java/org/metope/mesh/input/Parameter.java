package org.metope.mesh.input;

/**
 * One {@code key = value} of a deck block, with where its current value came from so that errors
 * can point at it. The value is kept as the text the user wrote (or the formatted default) and is
 * converted on each typed request, so the effective deck prints exactly what was read.
 */
final class Parameter {
  /** Where the current value came from. */
  enum Origin {
    /** A line of the deck file. */
    DECK,
    /** A {@code block/key=value} argument. */
    COMMAND_LINE,
    /** A default recorded by a {@code getOrAdd} request. */
    DEFAULT,
    /** A value set by the program, e.g. on restart. */
    SET_IN_CODE
  }

  /** Comment printed in the effective deck for recorded defaults (Parthenon's wording). */
  static final String DEFAULT_COMMENT = "# Default value added at run time";
  /** Comment printed in the effective deck for command-line overrides (Parthenon's wording). */
  static final String COMMAND_LINE_COMMENT = "# From command line";
  /** Comment printed in the effective deck for values set by the program (Parthenon's wording). */
  static final String SET_COMMENT = "# Updated during run time";

  final String block;
  final String key;
  String value;
  String comment;
  Origin origin;
  /** Deck line of the value (1-based) when {@link #origin} is {@link Origin#DECK}; 0 otherwise. */
  int line;

  Parameter(String block, String key, String value, String comment, Origin origin, int line) {
    this.block = block;
    this.key = key;
    this.value = value;
    this.comment = comment;
    this.origin = origin;
    this.line = line;
  }

  /** Replaces the value; the entry keeps its position in its block (last assignment wins). */
  void assign(String newValue, String newComment, Origin newOrigin, int newLine) {
    value = newValue;
    comment = newComment;
    origin = newOrigin;
    line = newLine;
  }

  /** {@code block/key}, the name users write on the command line. */
  String path() {
    return block + "/" + key;
  }

  /** {@code block/key = "value"} with a note when the value is not from the deck or command line. */
  String describe() {
    String text = path() + " = \"" + value + "\"";
    return switch (origin) {
      case DEFAULT -> text + " (default)";
      case SET_IN_CODE -> text + " (set by the program)";
      default -> text;
    };
  }

  /** The location part of an error message about this value. */
  String where(String deckName) {
    return switch (origin) {
      case DECK -> deckName + ":" + line;
      case COMMAND_LINE -> "command line";
      default -> deckName;
    };
  }
}
