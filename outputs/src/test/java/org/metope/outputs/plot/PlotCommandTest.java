package org.metope.outputs.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.metope.outputs.FileSeal;

/**
 * The plot command end to end: PNGs of fields that are known linear functions of position, read
 * back and checked pixel by pixel against the functions, the colour map and the block edges; and
 * every kind of bad input.
 */
class PlotCommandTest {
  @TempDir static Path dir;
  private static Path file2d;
  private static Path file3d;

  @BeforeAll
  static void writeFiles() throws Exception {
    System.setProperty("java.awt.headless", "true");
    file2d = PlotFiles.write(PlotFiles.DECK_2D, dir.resolve("2d"));
    file3d = PlotFiles.write(PlotFiles.DECK_3D, dir.resolve("3d"));
  }

  /** A plot written by the command and read back, with the frame its renderer used. */
  private record Plot(BufferedImage image, PlotFrame frame, double min, double max) {
    int rgb(int column, int row) {
      return image.getRGB(frame.left() + column, frame.top() + row) & 0xffffff;
    }

    int barRgb(int row) {
      return image.getRGB(frame.barLeft() + frame.barWidth() / 2, frame.top() + row) & 0xffffff;
    }
  }

  private static Plot plot(Path file, String... options) throws Exception {
    Path png = Files.createTempFile(dir, "plot", ".png");
    List<String> args = new ArrayList<>(List.of(file.toString(), "-o", png.toString()));
    args.addAll(List.of(options));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = PlotCommand.run(args.toArray(String[]::new), new PrintStream(OutputStreamSink.INSTANCE),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    BufferedImage image = ImageIO.read(png.toFile());
    PlotCommand.Options o = PlotCommand.parse(args.toArray(String[]::new));
    try (PhdfFile phdf = PhdfFile.open(file)) {
      PlotSlice slice = PlotSlice.of(phdf, o.sliceAxis(), o.sliceValue(),
          o.blocksOnly() ? null : phdf.values(phdf.field(o.variable())));
      PlotRenderer.Picture picture = PlotRenderer.render(phdf, slice, "t", o.blocksOnly());
      assertEquals(picture.image().getWidth(), image.getWidth());
      assertEquals(picture.image().getHeight(), image.getHeight());
      return new Plot(image, picture.frame(), picture.min(), picture.max());
    }
  }

  /** Where a colour lies on the colour map: the t in [0, 1] of the nearest of 1001 samples. */
  private static double colourMapPosition(int rgb) {
    double best = Double.MAX_VALUE;
    double bestT = -1;
    for (int n = 0; n <= 1000; n++) {
      double d = distance(rgb, Viridis.rgb(n / 1000.0));
      if (d < best) {
        best = d;
        bestT = n / 1000.0;
      }
    }
    assertTrue(best <= 3, "colour " + Integer.toHexString(rgb) + " is not on the colour map");
    return bestT;
  }

  private static double distance(int a, int b) {
    double d = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
      d = Math.max(d, Math.abs(((a >> shift) & 0xff) - ((b >> shift) & 0xff)));
    }
    return d;
  }

  private static double luminance(int rgb) {
    return 0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff);
  }

  /** Columns of the picture on which a block edge at {@code edges} is outlined. */
  private static boolean onEdge(PlotFrame f, int column, double... edges) {
    for (double e : edges) {
      int first = f.firstColumnFrom(e);
      if (column == first || column == first - 1) {
        return true;
      }
    }
    return false;
  }

  @Test
  void givenFEqualsX_thenTheColourRampFollowsXAndTheColourBar() throws Exception {
    Plot p = plot(file2d, "f");
    // f = x1: the finest cells (level 1, dx = 1/32) start at 1/64; level 0 (dx = 1/16) ends at 2 - 1/32.
    assertEquals(1.0 / 64, p.min(), 1e-12);
    assertEquals(2 - 1.0 / 32, p.max(), 1e-12);
    int row = p.frame().firstRowBelow(0.75) - 1; // inside the upper row of level-0 blocks
    double previousT = -1;
    double previousY = -1;
    int checked = 0;
    for (int c = 0; c < p.frame().width(); c++) {
      if (onEdge(p.frame(), c, 0, 0.5, 1, 1.5, 2)) {
        continue;
      }
      int rgb = p.rgb(c, row);
      double t = colourMapPosition(rgb);
      double x = p.frame().h(c);
      double cellCentre = (Math.floor(x * 16) + 0.5) / 16;
      assertEquals((cellCentre - p.min()) / (p.max() - p.min()), t, 0.006, "column " + c);
      assertTrue(t >= previousT, "colour map position falls at column " + c);
      assertTrue(luminance(rgb) >= previousY, "lightness falls at column " + c);
      previousT = t;
      previousY = luminance(rgb);
      // The colour bar shows the same colour at the height of this value.
      int barRow = (int) Math.round((1 - t) * (p.frame().height() - 1));
      assertTrue(distance(rgb, p.barRgb(barRow)) <= 4, "colour bar at row " + barRow);
      checked++;
    }
    assertTrue(checked > p.frame().width() * 0.9, "checked " + checked);
    assertTrue(previousT > 0.98, "the ramp reaches the top of the colour map");
    assertTrue(distance(Viridis.rgb(1.0), p.barRgb(0)) <= 2, "top of the colour bar: maximum");
    assertTrue(distance(Viridis.rgb(0.0), p.barRgb(p.frame().height() - 1)) <= 2,
        "bottom of the colour bar: minimum");
  }

  @Test
  void givenTwoLevels_thenOutlinesFallOnBlockEdgesInTheirLevelsColour() throws Exception {
    Plot p = plot(file2d, "f");
    PlotFrame f = p.frame();
    int level0 = PlotRenderer.levelColor(0);
    int level1 = PlotRenderer.levelColor(1);
    assertNotEquals(level0, level1);
    // Level-1 block [0, 0.25] x [0, 0.25]: last column at x1 = 0.25, rows inside x2 in (0, 0.25).
    int lastColumn = f.firstColumnFrom(0.25) - 1;
    int top = f.firstRowBelow(0.25);
    int bottom = f.firstRowBelow(0.0) - 1;
    for (int r = top; r <= bottom; r++) {
      assertEquals(level1, p.rgb(lastColumn, r), "right edge of a level-1 block, row " + r);
      assertEquals(level1, p.rgb(lastColumn + 1, r), "left edge of its neighbour, row " + r);
      if (r > top && r < bottom) {
        assertNotEquals(level1, p.rgb(lastColumn - 2, r), "inside the block, row " + r);
        assertNotEquals(level0, p.rgb(lastColumn - 2, r), "inside the block, row " + r);
      }
    }
    for (int c = f.firstColumnFrom(0.0); c <= lastColumn; c++) {
      assertEquals(level1, p.rgb(c, top), "top edge of the level-1 block, column " + c);
    }
    // Level-0 block [0.5, 1] x [0, 0.5]: its left column, and the level-1 block beside it.
    int first = f.firstColumnFrom(0.5);
    for (int r = f.firstRowBelow(0.5) + 1; r < f.firstRowBelow(0.0) - 1; r++) {
      assertEquals(level0, p.rgb(first, r), "left edge of a level-0 block, row " + r);
      assertEquals(level1, p.rgb(first - 1, r), "right edge of level-1 blocks, row " + r);
    }
    // The top edge of the domain belongs to level-0 blocks only.
    for (int c = 1; c < f.width() - 1; c++) {
      assertEquals(level0, p.rgb(c, 0), "top row, column " + c);
    }
  }

  @Test
  void givenBlocksOnly_thenOutlinesOnTheBackgroundAndNoField() throws Exception {
    Plot p = plot(file2d, "--blocks");
    PlotFrame f = p.frame();
    int background = PlotRenderer.BLOCKS_BACKGROUND_RGB;
    int row = f.firstRowBelow(0.75) - 1;
    int level0 = PlotRenderer.levelColor(0);
    for (int c = 0; c < f.width(); c++) {
      int expected = onEdge(f, c, 0, 0.5, 1, 1.5, 2) ? level0 : background;
      assertEquals(expected, p.rgb(c, row), "column " + c);
    }
    int level1Row = f.firstRowBelow(0.125) - 1; // through the level-1 blocks
    assertEquals(PlotRenderer.levelColor(1), p.rgb(f.firstColumnFrom(0.25), level1Row));
    assertEquals(background, p.rgb(f.firstColumnFrom(0.125), level1Row));
  }

  /**
   * A file without fields (an output of swarms only) still has its blocks: {@code --blocks}
   * draws the same picture as for the same mesh with fields, and asking for a field says the
   * file has none. Control: the file with fields draws its first field without a name.
   */
  @Test
  void givenAFileWithoutFields_thenBlocksAreDrawnAndAFieldIsOneSentence() throws Exception {
    Path bare = PlotFiles.writeWithoutFields(PlotFiles.DECK_2D, dir.resolve("bare"));
    BufferedImage expected = plot(file2d, "--blocks").image();
    BufferedImage actual = plot(bare, "--blocks").image();
    assertEquals(expected.getWidth(), actual.getWidth());
    assertEquals(expected.getHeight(), actual.getHeight());
    for (int y = 0; y < expected.getHeight(); y++) {
      for (int x = 0; x < expected.getWidth(); x++) {
        assertEquals(expected.getRGB(x, y), actual.getRGB(x, y), "pixel " + x + ", " + y);
      }
    }
    assertOneSentence("it has no fields: expected --blocks", bare.toString());
    assertOneSentence("it has no fields: expected --blocks", bare.toString(), "f");
    plot(file2d);
  }

  /**
   * A FINE field (twice the block's cells) is refused in one sentence naming it; control: the
   * same file's field {@code f} is drawn.
   */
  @Test
  void givenAFineField_thenOneSentenceNamingIt() throws Exception {
    Path fine = PlotFiles.writeWithFineField(PlotFiles.DECK_2D, dir.resolve("fine"));
    assertOneSentence("field phi_fine is FINE", fine.toString(), "phi_fine");
    plot(fine, "f");
  }

  @Test
  void givenAComponent_thenThatComponentIsDrawn() throws Exception {
    Plot p = plot(file2d, "v:1");
    // v1 = x1 + x2 over cell centres: from 1/64 + 1/64 (level 1) to (2 - 1/32) + (1 - 1/32).
    assertEquals(1.0 / 32, p.min(), 1e-12);
    assertEquals(3 - 1.0 / 16, p.max(), 1e-12);
    Plot v0 = plot(file2d, "v");
    assertEquals(1.0 / 64, v0.min(), 1e-12);
    assertEquals(1 - 1.0 / 32, v0.max(), 1e-12);
  }

  @Test
  void given3dSliceAlongX3_thenTheCellsOfThatPlane() throws Exception {
    Plot p = plot(file3d, "f", "--slice", "x3=0.3");
    // f = x1 + 2 x3 with x3 = 0.28125, the centre of the cell [0.25, 0.3125) holding 0.3.
    double x3 = 0.28125;
    assertEquals(1.0 / 32 + 2 * x3, p.min(), 1e-12);
    assertEquals(1 - 1.0 / 32 + 2 * x3, p.max(), 1e-12);
    int row = p.frame().height() / 4;
    double previous = -1;
    for (int c = 0; c < p.frame().width(); c++) {
      if (onEdge(p.frame(), c, 0, 0.5, 1)) {
        continue;
      }
      double t = colourMapPosition(p.rgb(c, row));
      double cell = (Math.floor(p.frame().h(c) * 16) + 0.5) / 16;
      assertEquals((cell + 2 * x3 - p.min()) / (p.max() - p.min()), t, 0.006, "column " + c);
      assertTrue(t >= previous);
      previous = t;
    }
  }

  @Test
  void given3dSliceAlongX1_thenX2AcrossAndX3Up() throws Exception {
    Plot p = plot(file3d, "f", "--slice", "x1=0.9");
    // x1 = 0.90625 everywhere; f grows with x3 only, upwards.
    assertEquals(0.90625 + 2.0 / 32, p.min(), 1e-12);
    assertEquals(0.90625 + 2 * (1 - 1.0 / 32), p.max(), 1e-12);
    int column = p.frame().width() / 4;
    double previous = 2;
    for (int r = 0; r < p.frame().height(); r++) {
      if (r == p.frame().firstRowBelow(0.5) || r == p.frame().firstRowBelow(0.5) - 1
          || r == 0 || r == p.frame().height() - 1) {
        continue;
      }
      double t = colourMapPosition(p.rgb(column, r));
      assertTrue(t <= previous, "row " + r);
      previous = t;
      assertEquals(p.rgb(column, r), p.rgb(column + 20, r), "constant along x2, row " + r);
    }
    assertTrue(previous < 0.02);
  }

  @Test
  void given3dWithoutSlice_thenTheMiddleOfX3() throws Exception {
    Plot p = plot(file3d, "f");
    double x3 = 0.53125; // the plane x3 = 0.5 lies in the cell [0.5, 0.5625)
    assertEquals(1.0 / 32 + 2 * x3, p.min(), 1e-12);
  }

  /** Runs the command and returns its exit code and standard error. */
  private static String[] runFailing(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = PlotCommand.run(args, new PrintStream(OutputStreamSink.INSTANCE),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {Integer.toString(code), err.toString(StandardCharsets.UTF_8)};
  }

  private static void assertOneSentence(String expectedPart, String... args) throws Exception {
    Path png = dir.resolve("never.png");
    List<String> all = new ArrayList<>(List.of("-o", png.toString()));
    all.addAll(List.of(args));
    String[] result = runFailing(all.toArray(String[]::new));
    assertEquals("2", result[0], result[1]);
    String message = result[1];
    assertEquals(1, message.lines().count(), message);
    assertTrue(message.startsWith("metope plot: "), message);
    assertTrue(message.contains(expectedPart), message);
    assertFalse(message.contains("Exception") || message.contains("\tat "), message);
    assertFalse(Files.exists(png), "no picture after an error");
  }

  @Test
  void givenBadInput_thenOneSentenceAndExitCode2() throws Exception {
    assertOneSentence("no such file", dir.resolve("missing.phdf").toString());
    Path text = Files.writeString(dir.resolve("notes.phdf"), "not hdf5\n");
    assertOneSentence("not an HDF5 file", text.toString());
    assertOneSentence("no variable \"nope\"", file2d.toString(), "nope");
    assertOneSentence("f, v", file2d.toString(), "nope");
    assertOneSentence("component index from 0 to 1", file2d.toString(), "v:2");
    assertOneSentence("outside the domain", file3d.toString(), "--slice", "x3=1.5");
    assertOneSentence("of a 2D file is a line", file2d.toString(), "--slice", "x1=0.5");
    assertOneSentence("x1=VALUE", file2d.toString(), "--slice", "y=0.5");
    assertOneSentence("a number", file2d.toString(), "--slice", "x3=abc");
    assertOneSentence("unknown option --colour", file2d.toString(), "--colour");
    assertOneSentence("needs a value", file2d.toString(), "--slice");
    Path file1d = PlotFiles.write(PlotFiles.DECK_1D, dir.resolve("1d"));
    assertOneSentence("a 1D file has no plane", file1d.toString());
  }

  @Test
  void givenAnHdf5FileOfAnotherKind_thenOneSentence() throws Exception {
    // An HDF5 signature and superblock with every object after them zeroed.
    Path copy = dir.resolve("damaged.phdf");
    byte[] bytes = Files.readAllBytes(file2d);
    for (int n = 512; n < bytes.length; n++) {
      bytes[n] = 0;
    }
    Files.write(copy, bytes);
    assertOneSentence("expected a .phdf output in Parthenon's layout", copy.toString());
  }

  /**
   * Where the bytes of one field value lie in {@code bytes}: a value of the first 5-dimensional
   * dataset whose 8 little-endian bytes occur once in the file.
   */
  private static int valueOffset(Path file, byte[] bytes) {
    try (io.jhdf.HdfFile h5 = new io.jhdf.HdfFile(file)) {
      for (io.jhdf.api.Node node : h5.getChildren().values()) {
        if (node instanceof io.jhdf.api.Dataset d && d.getDimensions().length == 5
            && d.getDataFlat() instanceof double[] values) {
          for (double v : values) {
            byte[] pattern = java.nio.ByteBuffer.allocate(8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putDouble(v).array();
            int first = indexOf(bytes, pattern, 0);
            if (v != 0.0 && first >= 0 && indexOf(bytes, pattern, first + 1) < 0) {
              return first;
            }
          }
        }
      }
    }
    throw new AssertionError("no field value occurs once in " + file);
  }

  private static int indexOf(byte[] bytes, byte[] pattern, int from) {
    outer:
    for (int i = from; i <= bytes.length - pattern.length; i++) {
      for (int k = 0; k < pattern.length; k++) {
        if (bytes[i + k] != pattern[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * A file Metope wrote and sealed is checked before it is drawn: one field value changed in its
   * last bit, or the file cut short, ends with the sentence that says so and no picture. Negative
   * control: the same changed bytes without their seal, a file as Parthenon writes them, are
   * drawn, so the damage is one only the check against the seal finds.
   */
  @Test
  void givenADamagedOrTruncatedMetopeFile_thenOneSentenceNamingTheDamage() throws Exception {
    byte[] bytes = Files.readAllBytes(file2d);
    Path flipped = dir.resolve("flipped.phdf");
    byte[] changed = bytes.clone();
    changed[valueOffset(file2d, bytes)] ^= 1;
    Files.write(flipped, changed);
    assertOneSentence("its content is damaged", flipped.toString());
    Path unsealed = dir.resolve("flipped-unsealed.phdf");
    Files.write(unsealed, java.util.Arrays.copyOf(changed, changed.length - FileSeal.LENGTH));
    String[] drawn = runFailing(unsealed.toString(), "-o", dir.resolve("unsealed.png").toString());
    assertEquals("0", drawn[0], "the unsealed copy is drawn: " + drawn[1]);
    assertTrue(Files.exists(dir.resolve("unsealed.png")));
    Path cut = dir.resolve("cut.phdf");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertOneSentence("it is truncated", cut.toString());
  }

  @Test
  void defaultNames() {
    assertEquals("run.out0.final.advected.png",
        PlotCommand.defaultName("run.out0.final.phdf", "advected"));
    assertEquals("run.out0.00003.v_1.png", PlotCommand.defaultName("run.out0.00003.phdf", "v:1"));
    assertEquals("x.h5.blocks.png", PlotCommand.defaultName("x.h5", "blocks"));
  }

  /** Discards what is written to it. */
  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}
  }
}
