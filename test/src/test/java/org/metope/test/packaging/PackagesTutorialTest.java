package org.metope.test.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;
import org.metope.test.RepoPaths;

/**
 * docs/PACKAGES.md cannot rot: every fenced block is a file of the repository (byte for byte, the
 * archetype's as generated), an excerpt found verbatim in one, or commands a test runs: those of
 * {@code run: archetype} by {@link PackageArchetypeTest}, those of {@code run: repository} here.
 */
class PackagesTutorialTest {
  private static final long RUN_TIMEOUT_SECONDS = 300;

  @TempDir Path dir;

  @Test
  void everyBlockIsARepositoryFileAnExcerptOrRunCommands() throws Exception {
    Path root = RepoPaths.root();
    List<Tutorial.Block> blocks = Tutorial.blocks(root.resolve("docs/PACKAGES.md"));
    assertTrue(blocks.size() >= 10, "blocks: " + blocks.size());
    for (Tutorial.Block b : blocks) {
      String where = "docs/PACKAGES.md:" + b.line();
      assertNotNull(b.kind(), where + ": a block without a file, excerpt or run marker");
      switch (b.kind()) {
        case "file" -> assertEquals(Tutorial.shown(root, b.target()), b.text(), where);
        case "excerpt" -> assertTrue(Tutorial.shown(root, b.target()).contains(b.text()),
            where + ": not found in " + b.target());
        case "run" -> assertTrue(List.of("archetype", "repository").contains(b.target()), where);
        default -> throw new AssertionError(where + ": unknown marker " + b.kind());
      }
    }
  }

  /**
   * The commands of section 4 from a fresh directory: the 2D diffusion deck on one rank and on
   * two MPJ ranks writes the same history (heat constant in every record, blocks refined and
   * merged), and the plot of its last HDF5 output is a PNG.
   */
  @Test
  void diffusionRunsOnOneAndTwoRanksAndPlots() throws Exception {
    Path root = RepoPaths.root();
    List<String> histories = new ArrayList<>();
    for (String line : Tutorial.commands(root.resolve("docs/PACKAGES.md"), "repository")) {
      List<String> command = new ArrayList<>();
      for (String word : line.split(" ")) {
        command.add(word.equals("./metope") ? RepoPaths.launcher().toString()
            : word.startsWith("inputs/") ? root.resolve(word).toString() : word);
      }
      ProcessResult r = ProcessResult.run(dir, RUN_TIMEOUT_SECONDS,
          Map.of("METOPE_SKIP_BUILD", "1"), command.toArray(new String[0]));
      assertEquals(0, r.exitCode(), line + "\n" + r.output());
      if (line.contains(" -i ")) {
        histories.add(Files.readString(dir.resolve("diffusion.out1.hst")));
        Files.delete(dir.resolve("diffusion.out1.hst"));
      }
    }
    assertEquals(2, histories.size());
    assertEquals(histories.get(0), histories.get(1));
    List<String> records = histories.get(0).lines().filter(l -> !l.startsWith("#")).toList();
    String heat = last(records.get(0));
    for (String record : records) {
      assertEquals(heat, last(record), histories.get(0));
    }
    assertTrue(!blocks(records.get(0)).equals(blocks(records.get(records.size() - 1))),
        "the mesh changed while running: " + histories.get(0));
    byte[] png = Files.readAllBytes(dir.resolve("diffusion.out2.final.u.png"));
    assertEquals(0x89, png[0] & 0xff);
    assertEquals("PNG", new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
  }

  private static String last(String record) {
    String[] columns = record.trim().split("\\s+");
    return columns[columns.length - 1];
  }

  private static String blocks(String record) {
    return record.trim().split("\\s+")[3];
  }
}
