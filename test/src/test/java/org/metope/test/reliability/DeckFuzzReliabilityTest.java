package org.metope.test.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;

/**
 * Mutates the shipped decks at random (seeded, so a failure reproduces) as a careless or hostile
 * user would: a value replaced by a bad number or text, a key or block name misspelt, a line
 * dropped. Each variant runs for at most a few seconds as a real process and must end in one of
 * two ways: a clean rejection (non-zero exit, one error line, no stack trace) or a clean run
 * (exit 0, no {@code nan} on the status lines or in the history, a warning naming a misspelt key
 * or block, and never {@code nan} or {@code inf} accepted for a numeric key). Anything else (a
 * stack trace, a hang, several error lines, a silent typo, a non-finite number accepted) fails.
 *
 * <p>{@code -Dmetope.fuzz.count=N} (default 12) and {@code -Dmetope.fuzz.seed=S} (default 18)
 * choose the variants; {@code -Dmetope.fuzz.classpath=CP} runs them against another build.
 */
class DeckFuzzReliabilityTest {
  @TempDir Path dir;

  /** How a variant ended. */
  enum Outcome {
    REJECTED, RAN, STACK_TRACE, HANG, UNCLEAR_ERROR, NAN_ACCEPTED,
    /** A non-finite number given for a numeric key ran. */
    NON_FINITE_ACCEPTED,
    /** A misspelt key or block ran without a warning naming it. */
    SILENT_TYPO
  }

  /** A mutation: what it did, and the name a warning must mention or the value to refuse. */
  private record Mutation(String what, String misspelt, boolean nonFiniteNumber) {}

  private static final String[] BAD_VALUES = {"nan", "NaN", "inf", "-inf", "-1", "0", "1e308",
      "-1e308", "2147483648", "1e-320", "abc", "", "1,2", "true", "0x10", "99999999999", "1.5",
      "../x", "/tmp/abs", "-0"};

  @Test
  void givenMutatedDecks_thenEveryVariantIsACleanRejectionOrACleanRun() throws Exception {
    int count = Integer.getInteger("metope.fuzz.count", 12);
    Random random = new Random(Long.getLong("metope.fuzz.seed", 18));
    List<Path> decks;
    try (Stream<Path> files = Files.list(MetopeProcess.root().resolve("inputs"))) {
      decks = files.filter(f -> f.getFileName().toString().startsWith("advection"))
          .sorted().toList();
    }
    Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
    List<String> bad = new ArrayList<>();
    for (int v = 0; v < count; v++) {
      Path source = decks.get(random.nextInt(decks.size()));
      List<String> lines = new ArrayList<>(Files.readAllLines(source));
      Mutation mutation = mutate(lines, random);
      String what = mutation.what();
      Path variant = Files.write(dir.resolve("v" + v + ".in"), lines);
      Path out = Files.createDirectories(dir.resolve("out" + v));
      Outcome outcome = run(variant, out, mutation);
      counts.merge(outcome, 1, Integer::sum);
      if (outcome != Outcome.REJECTED && outcome != Outcome.RAN) {
        bad.add(outcome + ": " + source.getFileName() + " " + what);
      }
    }
    System.out.println("deck fuzz: " + count + " variants " + counts);
    assertEquals(List.of(), bad, "variants that ended badly; all outcomes: " + counts);
  }

  /** Applies one random mutation to the deck's lines; returns what it did. */
  private static Mutation mutate(List<String> lines, Random random) {
    List<Integer> keyLines = new ArrayList<>();
    List<Integer> headers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String content = lines.get(i).replaceAll("#.*", "").strip();
      if (content.startsWith("<")) {
        headers.add(i);
      } else if (content.contains("=")) {
        keyLines.add(i);
      }
    }
    int kind = random.nextInt(10);
    if (kind < 6) {
      int i = keyLines.get(random.nextInt(keyLines.size()));
      String key = lines.get(i).substring(0, lines.get(i).indexOf('=')).strip();
      String old = lines.get(i).substring(lines.get(i).indexOf('=') + 1).replaceAll("#.*", "")
          .strip();
      String value = BAD_VALUES[random.nextInt(BAD_VALUES.length)];
      lines.set(i, key + " = " + value);
      boolean numeric = old.matches("[-+]?[0-9.]+([eE][-+]?[0-9]+)?");
      boolean nonFinite = numeric
          && value.toLowerCase(Locale.ROOT).matches("[-+]?(nan|inf)");
      return new Mutation("line " + (i + 1) + ": " + key + " = " + value, null, nonFinite);
    }
    if (kind < 8) {
      int i = keyLines.get(random.nextInt(keyLines.size()));
      String line = swapTwo(lines.get(i), random, lines.get(i).indexOf('='));
      boolean changed = !line.equals(lines.get(i));
      lines.set(i, line);
      return new Mutation("line " + (i + 1) + " key misspelt: " + line,
          changed ? line.substring(0, line.indexOf('=')).strip() : null, false);
    }
    if (kind < 9) {
      int i = headers.get(random.nextInt(headers.size()));
      String line = swapTwo(lines.get(i), random, lines.get(i).indexOf('>'));
      boolean changed = !line.equals(lines.get(i));
      lines.set(i, line);
      return new Mutation("line " + (i + 1) + " block misspelt: " + line,
          changed ? line.substring(1, line.indexOf('>')).strip() : null, false);
    }
    int i = keyLines.get(random.nextInt(keyLines.size()));
    return new Mutation("line " + (i + 1) + " dropped: " + lines.remove(i), null, false);
  }

  /** Swaps two adjacent characters before {@code end} (a typo), or doubles one. */
  private static String swapTwo(String line, Random random, int end) {
    int start = line.startsWith("<") ? 1 : 0;
    if (end - start < 3) {
      return line;
    }
    int at = start + random.nextInt(end - start - 2);
    char[] c = line.toCharArray();
    char t = c[at];
    c[at] = c[at + 1];
    c[at + 1] = t;
    String swapped = new String(c);
    return swapped.equals(line) ? line.substring(0, at) + line.charAt(at) + line.substring(at)
        : swapped;
  }

  private static Outcome run(Path deck, Path out, Mutation mutation) throws Exception {
    String cp = System.getProperty("metope.fuzz.classpath", System.getProperty("java.class.path"));
    String[] cmd = {Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", cp, "org.metope.app.Metope", "-i", deck.toString(), "-d", out.toString(),
        "-t", "00:00:04"};
    ProcessResult r;
    try {
      r = ProcessResult.run(out, 60, Map.of(), cmd);
    } catch (AssertionError timeout) {
      return Outcome.HANG;
    }
    if (MetopeProcess.hasStackTrace(r.output())) {
      return Outcome.STACK_TRACE;
    }
    if (r.exitCode() != 0) {
      return MetopeProcess.errorLines(r).size() == 1 ? Outcome.REJECTED : Outcome.UNCLEAR_ERROR;
    }
    boolean nan = r.output().lines().anyMatch(l -> l.startsWith("cycle=")
        && l.toLowerCase(Locale.ROOT).contains("nan"));
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".hst")).toList()) {
        nan |= Files.readString(f).lines().anyMatch(l -> !l.startsWith("#")
            && l.toLowerCase(Locale.ROOT).contains("nan"));
      }
    }
    if (nan) {
      return Outcome.NAN_ACCEPTED;
    }
    if (mutation.nonFiniteNumber()) {
      return Outcome.NON_FINITE_ACCEPTED;
    }
    if (mutation.misspelt() != null && r.output().lines().noneMatch(l -> l.startsWith("warning:")
        && l.contains(mutation.misspelt()))) {
      return Outcome.SILENT_TYPO;
    }
    return Outcome.RAN;
  }
}
