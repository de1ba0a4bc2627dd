package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetopeTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Metope.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private Path deck(String text) throws IOException {
    Path deck = dir.resolve("uni3d.in");
    Files.writeString(deck, text);
    return deck;
  }

  @Test
  void givenPrintDeckOnly_thenTheEffectiveDeckIsPrintedWithOverridesAndExitIsZero()
      throws IOException {
    Path deck = deck("<parthenon/mesh>\nnx1 = 64 # cells\n");
    assertEquals(0, run("-i", deck.toString(), "-n", "parthenon/mesh/nx1=32", "a/b=c"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("<parthenon/mesh>\nnx1 = 32 # From command line\n"), printed);
    assertTrue(printed.contains("<a>\nb = c # From command line\n"), printed);
    assertTrue(printed.endsWith("<par_end>\n"), printed);
    assertEquals("warning: command line: block <a> is not in " + deck
        + "; it is added for a/b\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenBadDeck_thenOneLineNamingFileAndLineAndExitTwo() throws IOException {
    Path deck = deck("<parthenon/mesh>\nnx1 64\n");
    assertEquals(2, run("-i", deck.toString(), "-n"));
    assertEquals(deck + ":2: \"nx1 64\" in block <parthenon/mesh>: expected key = value\n",
        err.toString(StandardCharsets.UTF_8));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }
}
