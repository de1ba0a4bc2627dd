package org.metope.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parthenon's command line: {@code -i DECK}, {@code -r RESTART}, {@code -n}, {@code -m N}, {@code
 * -d DIR}, {@code -t HH:MM:SS} and {@code block/key=value} overrides.
 *
 * @param deck the input deck, or null when the run resumes from a restart file
 * @param restartFile {@code -r RESTART}, or null when absent; the run then takes its deck from the
 *     file, and {@code -i} is not allowed
 * @param printDeckOnly {@code -n}: print the effective deck and exit
 * @param meshRanks {@code -m N}: print the mesh structure for N ranks and exit; 0 when absent
 * @param outputDir {@code -d DIR}, or the current directory
 * @param wallTimeLimitSeconds {@code -t}, or -1 when absent
 * @param overrides {@code block/key=value} arguments in command-line order
 */
public record LaunchOptions(
    Path deck,
    Path restartFile,
    boolean printDeckOnly,
    int meshRanks,
    Path outputDir,
    long wallTimeLimitSeconds,
    List<String> overrides) {

  /** A malformed command line; the message is one sentence for the user. */
  public static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** Parses the arguments, checking that the deck exists. */
  public static LaunchOptions parse(String[] args) throws UsageException {
    Path deck = null;
    Path restart = null;
    boolean printOnly = false;
    int meshRanks = 0;
    Path outputDir = Path.of(".");
    long wallTime = -1;
    List<String> overrides = new ArrayList<>();
    for (int a = 0; a < args.length; a++) {
      String arg = args[a];
      switch (arg) {
        case "-i" -> deck = once(deck, "-i", value(args, ++a, "-i", "an input deck path"));
        case "-r" -> restart = once(restart, "-r", value(args, ++a, "-r", "a restart file path"));
        case "-n" -> printOnly = true;
        case "-m" -> meshRanks = positiveInt(value(args, ++a, "-m", "a number of ranks"), "-m");
        case "-d" -> outputDir = Path.of(value(args, ++a, "-d", "an output directory"));
        case "-t" -> wallTime = parseWallTime(value(args, ++a, "-t", "a wall time HH:MM:SS"));
        default -> {
          if (arg.startsWith("-")) {
            throw new UsageException("unknown option '" + arg + "' (see metope --help)");
          }
          if (!arg.contains("/") || !arg.contains("=")) {
            throw new UsageException("argument '" + arg
                + "' is neither an option nor an override of the form block/key=value");
          }
          overrides.add(arg);
        }
      }
    }
    if (restart != null) {
      if (deck != null) {
        throw new UsageException("-r and -i exclude each other: a restart takes its deck from the"
            + " restart file; change values with block/key=value overrides");
      }
      if (Files.isDirectory(restart)) {
        throw new UsageException("restart file " + restart + " is a directory: give a .rhdf file"
            + " in it");
      }
      return new LaunchOptions(null, restart, printOnly, meshRanks, outputDir, wallTime,
          List.copyOf(overrides));
    }
    if (deck == null) {
      throw new UsageException("no input deck: give one with -i DECK (see metope --help)");
    }
    if (Files.isDirectory(deck)) {
      throw new UsageException("input deck " + deck + " is a directory: give a deck file in it");
    }
    if (!Files.isRegularFile(deck)) {
      throw new UsageException("input deck " + deck + " does not exist or is not a file");
    }
    return new LaunchOptions(deck, restart, printOnly, meshRanks, outputDir, wallTime,
        List.copyOf(overrides));
  }

  /** The path of an option that may be given once; a second one is an error, not a silent win. */
  private static Path once(Path earlier, String flag, String text) throws UsageException {
    if (earlier != null) {
      throw new UsageException("option " + flag + " is given twice (" + earlier + " and " + text
          + "): give it once");
    }
    return Path.of(text);
  }

  private static String value(String[] args, int index, String flag, String expected)
      throws UsageException {
    if (index >= args.length) {
      throw new UsageException("option " + flag + " needs " + expected);
    }
    return args[index];
  }

  private static int positiveInt(String text, String flag) throws UsageException {
    try {
      int v = Integer.parseInt(text);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("option " + flag + " = \"" + text + "\": expected a positive integer");
  }

  /**
   * The longest wall-time limit, in hours (about 11 years): longer ones are typos, and the
   * deadline must stay far inside the range of {@link System#nanoTime()} differences.
   */
  static final long MAX_WALL_HOURS = 100_000;

  /** Parses {@code HH:MM:SS} (hours may exceed 24, up to {@link #MAX_WALL_HOURS}) into seconds. */
  static long parseWallTime(String text) throws UsageException {
    String[] parts = text.split(":", -1);
    if (parts.length == 3 && text.matches("[0-9]{1,9}:[0-9]{1,2}:[0-9]{1,2}")) {
      long h = Long.parseLong(parts[0]);
      long m = Long.parseLong(parts[1]);
      long s = Long.parseLong(parts[2]);
      if (m < 60 && s < 60 && h <= MAX_WALL_HOURS) {
        return h * 3600 + m * 60 + s;
      }
    }
    throw new UsageException("option -t = \"" + text + "\": expected a wall time HH:MM:SS of at"
        + " most " + MAX_WALL_HOURS + " hours");
  }
}
