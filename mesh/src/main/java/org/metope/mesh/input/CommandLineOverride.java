package org.metope.mesh.input;

/**
 * One {@code block/key=value} argument of the command line, which replaces or adds a deck value
 * as Parthenon's {@code ParameterInput::ModifyFromCmdline} does: the block is everything before
 * the last {@code /} ahead of the first {@code =}, so block names may contain slashes
 * ({@code parthenon/mesh/nx1=64}), and a {@code #} starts a comment.
 *
 * @param block the block, e.g. {@code parthenon/mesh}
 * @param key the key, e.g. {@code nx1}
 * @param value the value, trimmed
 */
record CommandLineOverride(String block, String key, String value) {
  /** Where errors about overrides point. */
  static final String WHERE = "command line";

  /**
   * Parses {@code argument}.
   *
   * @throws InputError when it has no block, key or {@code =}
   */
  static CommandLineOverride parse(String argument) {
    String text = argument;
    int hash = text.indexOf('#');
    if (hash >= 0) {
      text = text.substring(0, hash);
    }
    int equals = text.indexOf('=');
    int slash = equals < 0 ? -1 : text.lastIndexOf('/', equals);
    String block = slash < 0 ? "" : text.substring(0, slash).strip();
    String key = slash < 0 ? "" : text.substring(slash + 1, equals).strip();
    if (block.isEmpty() || key.isEmpty()) {
      throw InputError.at(WHERE, "override \"" + argument + "\"", "block/key=value");
    }
    return new CommandLineOverride(block, key, text.substring(equals + 1).strip());
  }
}
