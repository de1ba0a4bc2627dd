package org.metope.test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.metope.app.Metope;
import org.metope.outputs.plot.PlotCommand;

/**
 * Run by {@link RestartFileReliabilityTest} in a JVM with a small heap: flips every bit of the
 * first bytes of every HDF5 object header ("OHDR": version, flags, sizes) of a sealed file and
 * checks that resuming from it ({@code -r}) and drawing it without its seal ({@code metope plot},
 * which trusts an unsealed file's structure) each end with one line and exit code 2. Prints one
 * line per case that does not, and the number of cases; a case that exhausts the heap ends the JVM
 * with an {@link OutOfMemoryError}.
 */
public final class HeaderFlipProbe {
  /** Bytes after each "OHDR" signature whose bits are flipped: version, flags, sizes. */
  private static final int HEADER_BYTES = 8;

  private HeaderFlipProbe() {}

  /** {@code args}: the sealed file, a scratch directory. */
  public static void main(String[] args) throws Exception {
    byte[] bytes = Files.readAllBytes(Path.of(args[0]));
    Path scratch = Path.of(args[1]);
    Path file = scratch.resolve("flipped.rhdf");
    Path unsealed = scratch.resolve("flipped.phdf");
    int cases = 0;
    int failures = 0;
    for (int sig = 0; sig + 4 <= bytes.length - 32; sig++) {
      if (bytes[sig] != 'O' || bytes[sig + 1] != 'H' || bytes[sig + 2] != 'D'
          || bytes[sig + 3] != 'R') {
        continue;
      }
      for (int at = sig + 4; at < sig + 4 + HEADER_BYTES; at++) {
        for (int bit = 0; bit < 8; bit++) {
          byte[] copy = bytes.clone();
          copy[at] ^= (byte) (1 << bit);
          Files.write(file, copy);
          Files.write(unsealed, Arrays.copyOf(copy, copy.length - 32));
          String where = "bit " + bit + " of byte " + at;
          cases++;
          failures += report(where + " (-r)", runMetope(file, scratch));
          failures += report(where + " (plot)", runPlot(unsealed, scratch));
        }
      }
    }
    System.out.println("cases " + cases + " failures " + failures);
  }

  /** One line and exit code 2, or a report of what happened: 0 or 1 failure. */
  private static int report(String where, String outcome) {
    if (outcome == null) {
      return 0;
    }
    System.out.println("FAIL " + where + ": " + outcome);
    return 1;
  }

  private static String runMetope(Path file, Path scratch) {
    return judge(out -> Metope.run(new String[] {"-r", file.toString(), "-d",
        scratch.resolve("out").toString()}), true);
  }

  private static String runPlot(Path file, Path scratch) {
    return judge(out -> PlotCommand.run(new String[] {file.toString(), "-o",
        scratch.resolve("p.png").toString()}, out, out), false);
  }

  /** Runs a command with its output captured; null when it refused in one line. */
  private static String judge(Command command, boolean refusalOnly) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(captured, true, StandardCharsets.UTF_8);
    PrintStream err = System.err;
    PrintStream out = System.out;
    int code;
    try {
      System.setErr(stream);
      System.setOut(stream);
      code = command.run(stream);
    } catch (RuntimeException | StackOverflowError e) {
      code = -1;
      stream.println(e);
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    String text = captured.toString(StandardCharsets.UTF_8).strip();
    boolean drawn = !refusalOnly && code == 0 && text.startsWith("metope plot: wrote");
    boolean refused = code == 2 && text.lines().count() == 1 && !text.contains("Exception");
    return drawn || refused ? null : "exit " + code + ": " + text.lines().limit(3).toList();
  }

  @FunctionalInterface
  private interface Command {
    int run(PrintStream out);
  }
}
