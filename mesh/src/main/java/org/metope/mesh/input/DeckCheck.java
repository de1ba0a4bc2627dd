package org.metope.mesh.input;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds what a deck sets but nothing reads, the check Parthenon users know as {@code
 * CheckOrphans}: a misspelt block or key would otherwise be silently ignored and its default used.
 * Each finding is a warning line naming the file, the line and, when one is close, the name that
 * was probably meant, e.g. {@code run.in:12: block <parthenon/tiem> is not read by Metope; did
 * you mean <parthenon/time>?}.
 *
 * <p>Two checks: {@link #unknownBlocks} against the blocks the framework and its applications
 * know, which needs no run (so {@code metope -n} reports them), and {@link #unreadKeys} after an
 * application has read its deck, which reports keys of known blocks that no getter requested and
 * no reader declared known ({@link ParameterInput#declareKnown}).
 */
public final class DeckCheck {
  /** Blocks the framework reads, besides applications' own and the numbered ones. */
  public static final List<String> FRAMEWORK_BLOCKS = List.of("parthenon/job", "parthenon/mesh",
      "parthenon/meshblock", "parthenon/time", "parthenon/sparse", "parthenon/kernels",
      "parthenon/comm", ParameterInput.LAUNCHER_BLOCK);
  /** Prefixes of numbered framework blocks, e.g. {@code <parthenon/output3>}. */
  public static final List<String> NUMBERED_BLOCKS = List.of("parthenon/output",
      "parthenon/refinement", "parthenon/static_refinement");
  private static final Pattern TRAILING_DIGITS = Pattern.compile(".*?([0-9]+)$");

  private DeckCheck() {}

  /**
   * Warnings for every block that is neither a framework block nor one of {@code
   * applicationBlocks} (every application's, not only the running one's).
   */
  public static List<String> unknownBlocks(ParameterInput pin,
      Collection<String> applicationBlocks) {
    List<String> warnings = new ArrayList<>();
    for (String block : pin.blockNames()) {
      String where = whereSet(pin, block);
      if (isKnownBlock(block, applicationBlocks) || where == null) {
        continue;
      }
      List<String> candidates = new ArrayList<>(FRAMEWORK_BLOCKS);
      candidates.addAll(applicationBlocks);
      String digits = trailingDigits(block);
      for (String prefix : NUMBERED_BLOCKS) {
        candidates.add(prefix + (digits.isEmpty() ? "0" : digits));
      }
      String guess = closest(block, candidates);
      warnings.add(where + ": block <" + block + "> is not read by Metope"
          + (guess == null ? "" : "; did you mean <" + guess + ">?"));
    }
    return warnings;
  }

  /**
   * Warnings for every key set in the deck or on the command line, in a known block that is not
   * in {@code skipBlocks}, that no getter requested and nobody declared known. Call it after the
   * run has read everything it reads at set-up. A block none of whose keys was read gets one
   * warning.
   */
  public static List<String> unreadKeys(ParameterInput pin, Collection<String> applicationBlocks,
      Collection<String> skipBlocks) {
    List<String> warnings = new ArrayList<>();
    Set<String> knownPaths = pin.knownPaths();
    for (String block : pin.blockNames()) {
      if (!isKnownBlock(block, applicationBlocks) || skipBlocks.contains(block)) {
        continue;
      }
      List<String> knownKeys = knownKeys(knownPaths, block);
      List<Parameter> unread = new ArrayList<>();
      for (Parameter p : pin.parametersOf(block)) {
        boolean fromUser = p.origin == Parameter.Origin.DECK
            || p.origin == Parameter.Origin.COMMAND_LINE;
        if (fromUser && !knownPaths.contains(p.path())) {
          unread.add(p);
        }
      }
      if (unread.isEmpty()) {
        continue;
      }
      if (knownKeys.isEmpty()) {
        warnings.add(whereSet(pin, block) + ": block <" + block
            + "> is not read by this run (its keys are ignored)");
        continue;
      }
      for (Parameter p : unread) {
        String guess = closest(p.key, knownKeys);
        warnings.add(p.where(pin.deckName()) + ": " + p.path() + " is not read by this run"
            + (guess == null ? "" : "; did you mean " + block + "/" + guess + "?"));
      }
    }
    return warnings;
  }

  private static List<String> knownKeys(Set<String> knownPaths, String block) {
    List<String> keys = new ArrayList<>();
    String prefix = block + "/";
    for (String path : knownPaths) {
      if (path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0) {
        keys.add(path.substring(prefix.length()));
      }
    }
    Collections.sort(keys);
    return keys;
  }

  private static boolean isKnownBlock(String block, Collection<String> applicationBlocks) {
    if (FRAMEWORK_BLOCKS.contains(block) || applicationBlocks.contains(block)) {
      return true;
    }
    for (String prefix : NUMBERED_BLOCKS) {
      if (block.startsWith(prefix) && block.length() > prefix.length()
          && block.substring(prefix.length()).chars().allMatch(Character::isDigit)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where the user put the block: its header line, or the command line when only overrides
   * made it; null when only the program added to it.
   */
  private static String whereSet(ParameterInput pin, String block) {
    String header = pin.blockWhere(block);
    if (!header.equals(pin.deckName())) {
      return header;
    }
    for (Parameter p : pin.parametersOf(block)) {
      if (p.origin == Parameter.Origin.DECK || p.origin == Parameter.Origin.COMMAND_LINE) {
        return p.where(pin.deckName());
      }
    }
    return null;
  }

  private static String trailingDigits(String name) {
    Matcher m = TRAILING_DIGITS.matcher(name);
    return m.matches() ? m.group(1) : "";
  }

  /**
   * The candidate nearest to {@code name} in edit distance (adjacent transpositions count one),
   * if it is near enough to be a likely typo: at most 1 edit for short names, a quarter of the
   * length for long ones; null when none is.
   */
  public static String closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = editDistance(name.toLowerCase(Locale.ROOT),
          candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    int allowed = Math.max(1, Math.min(name.length(), best == null ? 0 : best.length()) / 4);
    return best != null && bestDistance <= allowed && !best.equals(name) ? best : null;
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
  static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
