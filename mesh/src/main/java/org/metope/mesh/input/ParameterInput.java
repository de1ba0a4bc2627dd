package org.metope.mesh.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * An input deck in Parthenon's format, with command-line overrides applied, read through typed
 * getters (Parthenon's {@code ParameterInput}).
 *
 * <p>Values are kept as the text the user wrote and converted on each request; a value that does
 * not convert is an {@link InputError} such as {@code uni3d.in:7: parthenon/mesh/nx1 = "6x4":
 * expected an integer}. Reals must be finite ({@code nan} and {@code inf} are refused) except
 * through {@link #getOrAddRealOrInfinity}. {@code get*} requires the key; {@code getOrAdd*}
 * records the default in the deck when the key is absent, so that {@link #effectiveDeck()} prints
 * every value the run used. Requests are remembered: two requests of one key with different
 * defaults are a programming error, and {@link #unusedParameters()} lists what the deck set but
 * nobody read.
 *
 * <p>Blocks and keys keep the order of their first appearance (deck, then command line, then
 * defaults in request order). Syntax is described in {@link DeckParser}; value conversions in
 * {@link ValueParser}. The values are stored by {@link DeckBlocks}, what the program asked for
 * is kept by {@link ParameterRequests}, command-line arguments are {@link CommandLineOverride}s
 * and conversions with their errors are {@link ScalarValues} and {@link ListValues}; this class
 * is the one door to all of them.
 */
public final class ParameterInput {
  /**
   * Metope's block of launcher settings ({@code application}, {@code threads}, ...). Its keys are
   * given on the command line as often as in the deck, so an override that adds one is not warned
   * about; {@link DeckCheck#unreadKeys} still reports a misspelt one.
   */
  public static final String LAUNCHER_BLOCK = "metope";

  private final String deckName;
  private final DeckBlocks blocks = new DeckBlocks();
  private final ParameterRequests requests = new ParameterRequests();
  private final List<String> warnings = new ArrayList<>();

  private ParameterInput(String deckName) {
    this.deckName = deckName;
  }

  /**
   * Reads the deck file and applies {@code overrides} ({@code block/key=value}, in order; a later
   * one wins). The file's name as given appears in every error.
   *
   * @throws InputError when the file cannot be read, the deck is malformed or an override is
   */
  public static ParameterInput load(Path deck, List<String> overrides) {
    String text;
    try {
      text = Files.readString(deck, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw InputError.at(deck.toString(), "cannot read the input deck (" + reason(e) + ")",
          "a readable UTF-8 text file");
    }
    return parse(deck.toString(), text, overrides);
  }

  private static String reason(IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.charset.CharacterCodingException) {
      return "not UTF-8 text";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** Parses deck text as if read from a file named {@code deckName}, then applies overrides. */
  public static ParameterInput parse(String deckName, String text, List<String> overrides) {
    ParameterInput input = new ParameterInput(deckName);
    DeckParser.parse(deckName, text, input);
    for (String override : overrides) {
      input.applyOverride(override);
    }
    return input;
  }

  /** The deck's name as used in error messages. */
  public String deckName() {
    return deckName;
  }

  // ---- parsing hooks -----------------------------------------------------------------------

  /** A block header of the deck; a block given twice is merged, as in Parthenon, with a warning. */
  void declareBlock(String block, int line) {
    Integer first = blocks.headerLine(block);
    if (first != null) {
      warnings.add(deckName + ":" + line + ": block <" + block + "> is given again (first at line "
          + first + "); its keys are merged into one block, as Parthenon does");
    }
    blocks.declare(block, line);
  }

  /** A key of the deck; a key given twice takes the last value, as in Parthenon, with a warning. */
  void addParsed(String block, String key, String value, String comment, int line) {
    Parameter earlier = blocks.find(block, key);
    if (earlier != null) {
      warnings.add(deckName + ":" + line + ": " + block + "/" + key + " is given again (before at"
          + " line " + earlier.line + "); the last value, \"" + value + "\", is used, as Parthenon"
          + " does");
    }
    blocks.put(block, key, value, comment, Parameter.Origin.DECK, line);
  }

  private void applyOverride(String argument) {
    CommandLineOverride o = CommandLineOverride.parse(argument);
    if (!o.block().equals(LAUNCHER_BLOCK)) {
      warnIfAdded(o);
    }
    blocks.put(o.block(), o.key(), o.value(), Parameter.COMMAND_LINE_COMMENT,
        Parameter.Origin.COMMAND_LINE, 0);
  }

  /** Parthenon's warning for an override whose block or key the deck does not have. */
  private void warnIfAdded(CommandLineOverride o) {
    if (!blocks.hasBlock(o.block())) {
      warnings.add(CommandLineOverride.WHERE + ": block <" + o.block() + "> is not in "
          + deckName + "; it is added for " + o.block() + "/" + o.key());
    } else if (!blocks.has(o.block(), o.key())) {
      warnings.add(CommandLineOverride.WHERE + ": " + o.block() + "/" + o.key() + " is not in "
          + deckName + "; it is added");
    }
  }

  // ---- structure ---------------------------------------------------------------------------

  /** Whether the deck (or an override, or a recorded default) has this block. */
  public boolean doesBlockExist(String block) {
    return blocks.hasBlock(block);
  }

  /** Whether the block has this key (from the deck, an override, a default or a set). */
  public boolean doesParameterExist(String block, String key) {
    return blocks.has(block, key);
  }

  /**
   * Whether the user gave this key's value, in the deck or on the command line (not a recorded
   * default or a value the program set); lets a check point its error at the value the user wrote.
   */
  public boolean isGivenByUser(String block, String key) {
    Parameter p = blocks.find(block, key);
    return p != null
        && (p.origin == Parameter.Origin.DECK || p.origin == Parameter.Origin.COMMAND_LINE);
  }

  /** Every block name, in order of first appearance. */
  public List<String> blockNames() {
    return blocks.names();
  }

  /** Block names starting with {@code prefix} (e.g. {@code parthenon/output}), in deck order. */
  public List<String> blockNamesWithPrefix(String prefix) {
    return blocks.namesWithPrefix(prefix);
  }

  /** The keys of a block in order of first appearance; empty when the block does not exist. */
  public List<String> parameterNames(String block) {
    return blocks.keys(block);
  }

  // ---- typed getters -----------------------------------------------------------------------

  /** A required integer. */
  public int getInteger(String block, String key) {
    return ScalarValues.integer(deckName, required(block, key, "int", "an integer"));
  }

  /** An integer, or {@code defaultValue} (recorded in the deck) when the key is absent. */
  public int getOrAddInteger(String block, String key, int defaultValue) {
    Parameter p = orAdd(block, key, "int", Integer.toString(defaultValue));
    return ScalarValues.integer(deckName, p);
  }

  /** A required finite real. */
  public double getReal(String block, String key) {
    Parameter p = required(block, key, "Real", "a finite real number");
    return ScalarValues.real(deckName, p, false);
  }

  /** A finite real, or {@code defaultValue} (recorded in the deck) when the key is absent. */
  public double getOrAddReal(String block, String key, double defaultValue) {
    Parameter p = orAdd(block, key, "Real", ValueParser.formatReal(defaultValue));
    return ScalarValues.real(deckName, p, false);
  }

  /**
   * A finite real above zero, or {@code defaultValue} (recorded in the deck) when the key is
   * absent; any other value is one {@link InputError} line saying it expected {@code expected}
   * (e.g. {@code "a positive diffusivity"}).
   */
  public double getOrAddPositiveReal(String block, String key, double defaultValue,
      String expected) {
    double value = getOrAddReal(block, key, defaultValue);
    if (!(value > 0.0)) {
      throw error(block, key, expected);
    }
    return value;
  }

  /**
   * A real {@code >= 0} and below {@code upper}, the value of key {@code upperKey} (a derefinement
   * tolerance below its refinement tolerance), or {@code defaultValue} when the key is absent;
   * any other value is one {@link InputError} line naming {@code upperKey} and its value.
   */
  public double getOrAddRealBelow(String block, String key, double defaultValue,
      String upperKey, double upper) {
    double value = getOrAddReal(block, key, defaultValue);
    if (!(value >= 0.0 && value < upper)) {
      throw error(block, key, "a value >= 0 and below " + upperKey + " = " + upper);
    }
    return value;
  }

  /**
   * A real that may also be {@code inf} (never {@code -inf} or {@code nan}), or {@code
   * defaultValue} when the key is absent: for keys where infinity means "no limit".
   */
  public double getOrAddRealOrInfinity(String block, String key, double defaultValue) {
    Parameter p = orAdd(block, key, "Real", ValueParser.formatReal(defaultValue));
    return ScalarValues.real(deckName, p, true);
  }

  /** A required boolean: {@code true}/{@code false} in any case, or {@code 1}/{@code 0}. */
  public boolean getBoolean(String block, String key) {
    Parameter p = required(block, key, "bool", "a boolean (true or false)");
    return ScalarValues.bool(deckName, p);
  }

  /** A boolean, or {@code defaultValue} (recorded in the deck) when the key is absent. */
  public boolean getOrAddBoolean(String block, String key, boolean defaultValue) {
    Parameter p = orAdd(block, key, "bool", Boolean.toString(defaultValue));
    return ScalarValues.bool(deckName, p);
  }

  /** A required string (the value as written, trimmed; may be empty). */
  public String getString(String block, String key) {
    return required(block, key, "string", "a string").value;
  }

  /** A string, or {@code defaultValue} (recorded in the deck) when the key is absent. */
  public String getOrAddString(String block, String key, String defaultValue) {
    return orAdd(block, key, "string", defaultValue).value;
  }

  /** A required string that must be one of {@code allowed}. */
  public String getString(String block, String key, List<String> allowed) {
    String expected = "one of " + String.join(", ", allowed);
    Parameter p = required(block, key, "string", expected);
    return ScalarValues.oneOf(deckName, p, allowed, expected);
  }

  /** A string from {@code allowed}, or {@code defaultValue} when the key is absent. */
  public String getOrAddString(String block, String key, String defaultValue,
      List<String> allowed) {
    String expected = "one of " + String.join(", ", allowed);
    Parameter p = orAdd(block, key, "string", defaultValue);
    return ScalarValues.oneOf(deckName, p, allowed, expected);
  }

  /** A required comma-separated list of integers. */
  public int[] getIntegerList(String block, String key) {
    return ListValues.integers(deckName,
        required(block, key, "int list", "a comma-separated list of integers"));
  }

  /** A list of integers, or {@code defaultValue} (recorded in the deck) when absent. */
  public int[] getOrAddIntegerList(String block, String key, int[] defaultValue) {
    List<String> texts = new ArrayList<>();
    for (int v : defaultValue) {
      texts.add(Integer.toString(v));
    }
    return ListValues.integers(deckName, orAdd(block, key, "int list", String.join(", ", texts)));
  }

  /** A required comma-separated list of finite reals. */
  public double[] getRealList(String block, String key) {
    return ListValues.finiteReals(deckName,
        required(block, key, "Real list", "a comma-separated list of reals"));
  }

  /** A list of finite reals, or {@code defaultValue} (recorded in the deck) when absent. */
  public double[] getOrAddRealList(String block, String key, double[] defaultValue) {
    List<String> texts = new ArrayList<>();
    for (double v : defaultValue) {
      texts.add(ValueParser.formatReal(v));
    }
    return ListValues.finiteReals(deckName,
        orAdd(block, key, "Real list", String.join(", ", texts)));
  }

  /** A required comma-separated list of strings (each trimmed). */
  public List<String> getStringList(String block, String key) {
    return ValueParser.splitList(
        required(block, key, "string list", "a comma-separated list").value);
  }

  /**
   * The items of a comma-separated list as the deck holds it, or none when the key is absent,
   * without requesting the key: a look at the deck before a run reads it (which application it is
   * for), after which {@link DeckCheck#unreadKeys} still warns about the key if nothing reads it.
   */
  public List<String> peekStringList(String block, String key) {
    Parameter p = find(block, key);
    return p == null ? List.of() : ValueParser.splitList(p.value);
  }

  /** A list of strings, or {@code defaultValue} (recorded in the deck) when absent. */
  public List<String> getOrAddStringList(String block, String key, List<String> defaultValue) {
    return ValueParser.splitList(orAdd(block, key, "string list",
        String.join(", ", defaultValue)).value);
  }

  // ---- setters (Parthenon's Set*: values the program decides, e.g. on restart) -------------

  /** Sets an integer, creating the key if needed; the effective deck shows the new value. */
  public void setInteger(String block, String key, int value) {
    set(block, key, "int", Integer.toString(value));
  }

  /** Sets a real, creating the key if needed; printed so that it reads back bit for bit. */
  public void setReal(String block, String key, double value) {
    set(block, key, "Real", ValueParser.formatReal(value));
  }

  /** Sets a boolean, creating the key if needed. */
  public void setBoolean(String block, String key, boolean value) {
    set(block, key, "bool", Boolean.toString(value));
  }

  /** Sets a string, creating the key if needed. */
  public void setString(String block, String key, String value) {
    set(block, key, "string", value);
  }

  private void set(String block, String key, String type, String text) {
    requests.set(path(block, key), type);
    blocks.put(block, key, text, Parameter.SET_COMMENT, Parameter.Origin.SET_IN_CODE, 0);
  }

  // ---- required / desired / unused ---------------------------------------------------------

  /**
   * Parthenon's {@code CheckRequired}: the key must be set by the deck or the command line (a
   * recorded default does not count).
   */
  public void checkRequired(String block, String key) {
    Parameter p = find(block, key);
    if (p == null || p.origin == Parameter.Origin.DEFAULT) {
      throw InputError.at(deckName, path(block, key) + " is required",
          "a value in the deck or on the command line");
    }
  }

  /**
   * Parthenon's {@code CheckDesired}: adds a warning when the key is missing or only defaulted.
   */
  public void checkDesired(String block, String key) {
    Parameter p = find(block, key);
    if (p == null) {
      warnings.add(deckName + ": desired parameter " + path(block, key) + " is missing");
    } else if (p.origin == Parameter.Origin.DEFAULT) {
      warnings.add(deckName + ": desired parameter " + path(block, key) + " defaults to "
          + p.value);
    }
  }

  /**
   * Declares keys the program understands but does not read in this run (e.g. {@code numlevel}
   * without refinement), so that {@link DeckCheck} does not report them as unknown.
   */
  public void declareKnown(String block, String... keys) {
    for (String key : keys) {
      requests.declareKnown(path(block, key));
    }
  }

  /** {@code block/key} of every key a getter requested or {@link #declareKnown} declared. */
  Set<String> knownPaths() {
    return requests.knownPaths();
  }

  /** Where a block's header is ({@code deck.in:12}), or the deck's name when it has none. */
  String blockWhere(String block) {
    Integer line = blocks.headerLine(block);
    return line == null ? deckName : deckName + ":" + line;
  }

  /** Warnings for the user (overrides that add keys, missing desired keys), in order. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * Parthenon's {@code CheckOrphans}: {@code block/key} of every value set in the deck or on the
   * command line that no getter has requested, in deck order.
   */
  public List<String> unusedParameters() {
    List<String> unused = new ArrayList<>();
    for (Parameter p : blocks.all()) {
      if (!requests.wasRequested(p.path())) {
        unused.add(p.path());
      }
    }
    return unused;
  }

  // ---- errors and output -------------------------------------------------------------------

  /**
   * An error about a key's value found by other code, pointing at where the value came from, e.g.
   * {@code error("parthenon/meshblock", "nx1", "a divisor of parthenon/mesh/nx1 = 64")} gives
   * {@code uni3d.in:12: parthenon/meshblock/nx1 = "48": expected a divisor of ...}.
   */
  public InputError error(String block, String key, String expected) {
    Parameter p = find(block, key);
    if (p == null) {
      return InputError.at(deckName, path(block, key) + " is missing", expected);
    }
    return InputError.at(p.where(deckName), p.describe(), expected);
  }

  /** An error about a block as a whole, pointing at its header line when it has one. */
  public InputError blockError(String block, String what, String expected) {
    return InputError.at(blockWhere(block), "<" + block + "> " + what, expected);
  }

  /**
   * The effective deck in Parthenon's format (its {@code ParameterDump}): every block and value
   * including recorded defaults, with comments, ending in {@code <par_end>}. Parsing it gives the
   * same values back.
   */
  public String effectiveDeck() {
    return DeckWriter.write(blocks.names(), blocks::sectionOf);
  }

  /** Writes {@link #effectiveDeck()} to {@code file} through a temporary name and a rename. */
  public void saveEffectiveDeck(Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
    Files.writeString(temporary, effectiveDeck(), StandardCharsets.UTF_8);
    Files.move(temporary, absolute, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  Collection<Parameter> parametersOf(String block) {
    return blocks.parametersOf(block);
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static String path(String block, String key) {
    return block + "/" + key;
  }

  private Parameter find(String block, String key) {
    return blocks.find(block, key);
  }

  private Parameter required(String block, String key, String type, String expected) {
    requests.request(path(block, key), type, null);
    Parameter p = find(block, key);
    if (p == null) {
      String what = blocks.hasBlock(block)
          ? path(block, key) + " is required but missing"
          : path(block, key) + " is required but block <" + block + "> is missing";
      throw InputError.at(deckName, what, expected);
    }
    return p;
  }

  private Parameter orAdd(String block, String key, String type, String defaultText) {
    requests.request(path(block, key), type, defaultText);
    Parameter p = find(block, key);
    if (p == null) {
      blocks.put(block, key, defaultText, Parameter.DEFAULT_COMMENT, Parameter.Origin.DEFAULT, 0);
      p = find(block, key);
    }
    return p;
  }
}
