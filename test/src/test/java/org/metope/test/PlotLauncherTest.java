package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.outputs.plot.PhdfFile;
import org.metope.outputs.plot.PlotFrame;
import org.metope.outputs.plot.PlotRenderer;
import org.metope.outputs.plot.PlotSlice;

/**
 * {@code ./metope plot} as a user runs it, on the final output Parthenon itself wrote for its 2D
 * adaptive advection deck (examples' {@code parthenon/amr2d}) and on the first output of the same
 * deck, the only one with blocks on all three levels: every block outlined in its level's colour
 * where the file puts it.
 */
class PlotLauncherTest {
  private static final Path AMR2D = RepoPaths.root()
      .resolve("examples/src/test/resources/parthenon/amr2d/advection.out0.final.phdf");

  @TempDir Path dir;

  /** Runs {@code ./metope plot ARGS} in {@code dir} on the jars this build made. */
  private ProcessResult plot(String... args) throws Exception {
    String[] command = new String[args.length + 2];
    command[0] = RepoPaths.launcher().toString();
    command[1] = "plot";
    System.arraycopy(args, 0, command, 2, args.length);
    return ProcessResult.run(dir, 60, Map.of("METOPE_SKIP_BUILD", "1"), command);
  }

  @Test
  void givenParthenonsAdaptiveOutput_thenEveryBlockIsOutlinedInItsLevelsColour()
      throws Exception {
    Path png = dir.resolve("amr2d.png");
    ProcessResult r = plot(AMR2D.toString(), "advected", "-o", png.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("wrote " + png), r.output());
    BufferedImage image = ImageIO.read(png.toFile());
    try (PhdfFile file = PhdfFile.open(AMR2D)) {
      PlotSlice blocks = PlotSlice.of(file, -1, 0, file.values(file.field("advected")));
      PlotFrame f = PlotRenderer.render(file, blocks, "", false).frame();
      Map<Integer, Integer> perLevel = new TreeMap<>();
      for (PlotSlice.Patch p : blocks.patches()) {
        perLevel.merge(p.level(), 1, Integer::sum);
        int column = f.left() + f.firstColumnFrom(p.hMin());
        int row = f.top() + f.firstRowBelow(0.5 * (p.vMin() + p.vMax()));
        assertEquals(PlotRenderer.levelColor(p.level()), image.getRGB(column, row) & 0xffffff,
            "left edge of block " + p.block() + " at level " + p.level());
      }
      // Parthenon's /Levels for this file (read with h5py): 42 blocks at level 1, 88 at level 2.
      assertEquals(Map.of(1, 42, 2, 88), perLevel);
    }
  }

  /** Runs {@code ./metope ARGS} in {@code dir}. */
  private ProcessResult metope(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = RepoPaths.launcher().toString();
    System.arraycopy(args, 0, command, 1, args.length);
    return ProcessResult.run(dir, 120, Map.of("METOPE_SKIP_BUILD", "1"), command);
  }

  @Test
  void givenTheAdaptiveDecksFirstOutput_thenAllThreeLevelsAreDrawnInTheirColours()
      throws Exception {
    // Parthenon's committed output of this deck is its final one, where no root-level block is
    // left; its first output (cycle 0, after start-up refinement) has all three levels. Metope
    // writes it here from the same deck; its block count is Parthenon's (the first record of
    // Parthenon's history file, amr2d/advection.out3.hst: 88 blocks at cycle 0).
    Path deck = AMR2D.resolveSibling("parthinput.advection");
    ProcessResult run = metope("-i", deck.toString(), "-d", dir.toString(),
        "parthenon/time/nlim=0", "parthenon/output1/dt=-1", "parthenon/output3/dt=-1",
        "parthenon/output4/dt=-1");
    assertEquals(0, run.exitCode(), run.output());
    Path first = dir.resolve("advection.out0.00000.phdf");
    Path png = dir.resolve("first.png");
    ProcessResult r = plot(first.toString(), "--blocks", "-o", png.toString());
    assertEquals(0, r.exitCode(), r.output());
    BufferedImage image = ImageIO.read(png.toFile());
    try (PhdfFile file = PhdfFile.open(first)) {
      PlotSlice blocks = PlotSlice.of(file, -1, 0, file.values(file.field("advected")));
      assertEquals(88, blocks.patches().size());
      PlotFrame f = PlotRenderer.render(file, blocks, "", true).frame();
      Map<Integer, Integer> outlinePixels = new TreeMap<>();
      for (int level = 0; level < 3; level++) {
        outlinePixels.put(level, 0);
      }
      for (int row = f.top(); row < f.top() + f.height(); row++) {
        for (int column = f.left(); column < f.left() + f.width(); column++) {
          int rgb = image.getRGB(column, row) & 0xffffff;
          for (int level = 0; level < 3; level++) {
            if (rgb == PlotRenderer.levelColor(level)) {
              outlinePixels.merge(level, 1, Integer::sum);
            }
          }
        }
      }
      for (int level = 0; level < 3; level++) {
        assertTrue(outlinePixels.get(level) > 100, "outline pixels per level " + outlinePixels);
      }
      for (PlotSlice.Patch p : blocks.patches()) {
        int column = f.left() + f.firstColumnFrom(p.hMin());
        int row = f.top() + f.firstRowBelow(0.5 * (p.vMin() + p.vMax()));
        assertEquals(PlotRenderer.levelColor(p.level()), image.getRGB(column, row) & 0xffffff,
            "left edge of block " + p.block() + " at level " + p.level());
      }
    }
  }

  @Test
  void givenBlocksOnlyAndAMissingFile_thenAPictureAndOneSentence() throws Exception {
    Path png = dir.resolve("blocks.png");
    ProcessResult ok = plot(AMR2D.toString(), "--blocks", "-o", png.toString());
    assertEquals(0, ok.exitCode(), ok.output());
    assertTrue(Files.size(png) > 0);
    ProcessResult bad = plot("missing.phdf");
    assertEquals(2, bad.exitCode(), bad.output());
    assertEquals("metope plot: missing.phdf: cannot read the file (no such file): expected a .phdf"
        + " output in Parthenon's layout", bad.output().strip());
    assertFalse(Files.exists(dir.resolve("missing.advected.png")));
  }
}
