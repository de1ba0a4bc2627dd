package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchOptionsTest {
  @TempDir Path dir;

  private Path deck() throws IOException {
    Path deck = dir.resolve("a.in");
    Files.writeString(deck, "<parthenon/job>\nproblem_id = a\n");
    return deck;
  }

  @Test
  void givenFullCommandLine_thenEveryOptionIsRead() throws Exception {
    String d = deck().toString();
    LaunchOptions o = LaunchOptions.parse(new String[] {
        "-i", d, "parthenon/time/nlim=3", "-n", "-m", "4", "-d", "out", "-t", "01:02:03",
        "Advection/cfl=0.3"});
    assertEquals(Path.of(d), o.deck());
    assertTrue(o.printDeckOnly());
    assertEquals(4, o.meshRanks());
    assertEquals(Path.of("out"), o.outputDir());
    assertEquals(3723, o.wallTimeLimitSeconds());
    assertEquals(List.of("parthenon/time/nlim=3", "Advection/cfl=0.3"), o.overrides());
    assertEquals(null, o.restartFile());
  }

  @Test
  void givenARestartFile_thenItNeedsNoDeckAndRefusesOne() throws Exception {
    LaunchOptions o = LaunchOptions.parse(new String[] {"-r", "a.rhdf", "parthenon/time/nlim=9"});
    assertEquals(Path.of("a.rhdf"), o.restartFile());
    assertEquals(null, o.deck());
    assertEquals(List.of("parthenon/time/nlim=9"), o.overrides());
    assertEquals("-r and -i exclude each other: a restart takes its deck from the restart file;"
        + " change values with block/key=value overrides",
        message("-i", deck().toString(), "-r", "a.rhdf"));
  }

  @Test
  void givenBadArguments_thenOneSentenceEach() throws Exception {
    String d = deck().toString();
    assertEquals("unknown option '--frobnicate' (see metope --help)",
        message("-i", d, "--frobnicate"));
    assertEquals("no input deck: give one with -i DECK (see metope --help)", message("-n"));
    assertEquals("option -i needs an input deck path", message("-i"));
    assertEquals("option -m = \"two\": expected a positive integer", message("-i", d, "-m", "two"));
    assertEquals("option -t = \"1:99:00\": expected a wall time HH:MM:SS of at most 100000"
        + " hours", message("-i", d, "-t", "1:99:00"));
    assertEquals("option -t = \"2600000:00:00\": expected a wall time HH:MM:SS of at most"
        + " 100000 hours", message("-i", d, "-t", "2600000:00:00"));
    assertEquals(360_000_000L + 59 * 60 + 59, LaunchOptions.parseWallTime("100000:59:59"),
        "the longest limit is exact");
    assertEquals("option -i is given twice (" + d + " and other.in): give it once",
        message("-i", d, "-i", "other.in"));
    assertEquals("input deck " + dir + " is a directory: give a deck file in it",
        message("-i", dir.toString()));
    assertEquals("restart file " + dir + " is a directory: give a .rhdf file in it",
        message("-r", dir.toString()));
    assertEquals("argument 'nlim' is neither an option nor an override of the form block/key=value",
        message("-i", d, "nlim"));
    assertTrue(message("-i", dir.resolve("missing.in").toString()).endsWith("does not exist or is not a file"));
  }

  private static String message(String... args) {
    return assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(args))
        .getMessage();
  }
}
