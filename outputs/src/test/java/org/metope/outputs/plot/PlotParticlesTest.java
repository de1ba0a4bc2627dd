package org.metope.outputs.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code metope plot --particles}: files with particles at known positions, plotted, and the
 * red marker pixels counted and found where the positions say. The plot area's corner (86, 64)
 * and scale follow {@link PlotRenderer}'s rule (the longer side has two pixels per finest cell,
 * at least 600): 300 pixels per unit on the 2D file ([0, 2] x [0, 1]), 600 on the 3D one.
 */
class PlotParticlesTest {
  private static final int LEFT = 86;
  private static final int TOP = 64;
  private static final int RED = PlotRenderer.PARTICLE_RGB;
  private static final double[][] POINTS_2D = {{0.3, 0.2, 0.0}, {1.234, 0.77, 0.0},
      {1.9, 0.05, 0.0}};

  @TempDir static Path dir;
  private static Path file2d;
  private static Path file3d;

  @BeforeAll
  static void writeFiles() throws Exception {
    System.setProperty("java.awt.headless", "true");
    file2d = PlotFiles.writeWithParticles(PlotFiles.DECK_2D, dir.resolve("2d"), POINTS_2D);
    file3d = PlotFiles.writeWithParticles(PlotFiles.DECK_3D, dir.resolve("3d"),
        new double[] {0.2, 0.3, 0.51}, new double[] {0.6, 0.7, 0.6},
        new double[] {0.8, 0.1, 0.49});
  }

  /** Runs the command; returns the picture, or null with the exit code in {@code code[0]}. */
  private static BufferedImage plot(Path file, ByteArrayOutputStream out, int[] code,
      String... options) throws Exception {
    Path png = Files.createTempFile(dir, "plot", ".png");
    List<String> args = new ArrayList<>(List.of(file.toString(), "-o", png.toString()));
    args.addAll(List.of(options));
    code[0] = PlotCommand.run(args.toArray(String[]::new),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(out, true, StandardCharsets.UTF_8));
    return code[0] == 0 ? ImageIO.read(png.toFile()) : null;
  }

  private static BufferedImage plot(Path file, String... options) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int[] code = new int[1];
    BufferedImage image = plot(file, out, code, options);
    assertEquals(0, code[0], out.toString(StandardCharsets.UTF_8));
    return image;
  }

  private static int redPixels(BufferedImage image) {
    int red = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        red += (image.getRGB(x, y) & 0xffffff) == RED ? 1 : 0;
      }
    }
    return red;
  }

  private static void assertMarkerAt(BufferedImage image, double h, double v, double vMax,
      double scale) {
    int column = LEFT + (int) Math.floor(h * scale);
    int row = TOP + (int) Math.floor((vMax - v) * scale);
    for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
        assertEquals(RED, image.getRGB(column + dx, row + dy) & 0xffffff,
            "marker of (" + h + ", " + v + ") at (" + (column + dx) + ", " + (row + dy) + ")");
      }
    }
  }

  @Test
  void givenParticlesOnA2dFile_thenEachIsA3x3RedSquareWhereItsPositionSays() throws Exception {
    BufferedImage image = plot(file2d, "--particles", "s");
    for (double[] p : POINTS_2D) {
      assertMarkerAt(image, p[0], p[1], 1.0, 300);
    }
    assertEquals(9 * POINTS_2D.length, redPixels(image));
  }

  /** The control: the same file without {@code --particles} has no red pixel. */
  @Test
  void givenNoParticlesOption_thenThePictureHasNoRedPixel() throws Exception {
    assertEquals(0, redPixels(plot(file2d)));
  }

  @Test
  void givenA3dSlice_thenOnlyParticlesInItsLayerOfCellsAreMarked() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BufferedImage image = plot(file3d, out, new int[1], "--slice", "x3=0.53", "--particles", "s");
    assertMarkerAt(image, 0.2, 0.3, 1.0, 600);
    assertEquals(9, redPixels(image), "z = 0.6 and 0.49 lie outside the layer [0.5, 0.5625)");
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("1 particles of s"), out.toString());
  }

  @Test
  void givenASwarmTheFileDoesNotHold_thenOneLineAndExitCode2() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int[] code = new int[1];
    plot(file2d, out, code, "--particles", "dust");
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(2, code[0]);
    assertEquals(1, text.lines().count(), text);
    assertTrue(text.startsWith("metope plot: command line: --particles dust"), text);
  }
}
