package org.metope.outputs.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.metope.outputs.plot.PlotSlice.Patch;

/**
 * Draws a {@link PlotSlice} into an image: the cells in the {@link Viridis} colour map scaled to
 * the slice's finite minimum and maximum (NaN and infinite cells grey), each block's outline in
 * the colour of its refinement level ({@link #levelColor}), axes in physical units with tick
 * labels, a colour bar labelled with the minimum and maximum, a legend of the levels shown and a
 * title. With no values (block structure only) the blocks are outlined on a dark background and
 * there is no colour bar. Particles ({@link PlotParticles}), when given, are drawn last, each a
 * square of 3 x 3 pixels in {@link #PARTICLE_RGB} centred on the pixel holding it, clipped to
 * the plot area.
 *
 * <p>The plot area keeps the domain's aspect ratio; its longer side has two pixels per cell of
 * the finest level shown, from 600 to 960 pixels. Outlines are drawn only when every block is at
 * least {@value #MIN_OUTLINED_PIXELS} pixels wide and tall (otherwise the title says so).
 */
public final class PlotRenderer {
  /** The smallest block (in pixels) that still gets an outline. */
  static final int MIN_OUTLINED_PIXELS = 4;
  /** Colour of cells without a finite value. */
  static final int NOT_FINITE_RGB = 0x808080;
  /** Colour of particle markers: pure red, in neither viridis nor the level colours. */
  static final int PARTICLE_RGB = 0xff0000;
  /** Background of the plot area when only the block structure is drawn. */
  static final int BLOCKS_BACKGROUND_RGB = 0x1c2331;

  /** Outline colours by level: chosen to stand out on every colour of viridis. */
  private static final int[] LEVEL_RGB = {
    0xffffff, 0xff3b30, 0x00e5ff, 0xff9f0a, 0xff2dff, 0x000000, 0xa0a0a0,
  };
  private static final int LEFT = 86;
  private static final int TOP = 64;
  private static final int BOTTOM = 58;
  private static final int BAR_GAP = 26;
  private static final int BAR_WIDTH = 22;
  private static final int RIGHT_LABELS = 122;
  private static final Color INK = new Color(0x202020);

  /** A picture and where its parts are. */
  public record Picture(BufferedImage image, PlotFrame frame, double min, double max,
      boolean outlined) {}

  private PlotRenderer() {}

  /** The outline colour of blocks of {@code level} as {@code 0xRRGGBB}. */
  public static int levelColor(int level) {
    return LEVEL_RGB[Math.min(level, LEVEL_RGB.length - 1)];
  }

  /**
   * Draws {@code slice} of {@code file}; {@code title} heads the picture.
   *
   * @param blocksOnly draw only the block structure (the patches' values are ignored)
   */
  public static Picture render(PhdfFile file, PlotSlice slice, String title, boolean blocksOnly) {
    return render(file, slice, title, blocksOnly, null);
  }

  /**
   * Draws {@code slice} of {@code file} with {@code particles} (null: none) over it.
   *
   * @param blocksOnly draw only the block structure (the patches' values are ignored)
   */
  public static Picture render(PhdfFile file, PlotSlice slice, String title, boolean blocksOnly,
      PlotParticles particles) {
    PlotFrame frame = frame(file, slice, blocksOnly);
    int imageWidth = frame.barLeft() + (blocksOnly ? 24 : BAR_WIDTH + RIGHT_LABELS);
    int imageHeight = TOP + frame.height() + BOTTOM;
    BufferedImage image = new BufferedImage(imageWidth, imageHeight, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, imageWidth, imageHeight);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
          RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      double[] range = blocksOnly ? new double[] {0, 0} : range(slice.patches());
      if (blocksOnly) {
        g.setColor(new Color(BLOCKS_BACKGROUND_RGB));
        g.fillRect(frame.left(), frame.top(), frame.width(), frame.height());
      } else {
        fillCells(image, frame, slice.patches(), range);
        drawColourBar(g, image, frame, range);
      }
      boolean outlined = smallestBlockPixels(frame, slice.patches()) >= MIN_OUTLINED_PIXELS;
      if (outlined) {
        drawOutlines(image, frame, slice.patches());
      }
      if (particles != null) {
        drawParticles(image, frame, particles);
      }
      drawAxes(g, frame, slice);
      String subtitle = subtitle(file, slice, outlined) + (particles == null ? ""
          : ", " + particles.count() + " particles of " + particles.swarm());
      drawTitle(g, frame, title, subtitle, levels(slice.patches()));
      return new Picture(image, frame, range[0], range[1], outlined);
    } finally {
      g.dispose();
    }
  }

  private static PlotFrame frame(PhdfFile file, PlotSlice slice, boolean blocksOnly) {
    int h = slice.horizontalAxis();
    int v = slice.verticalAxis();
    double hMin = file.domainMin(h);
    double hMax = file.domainMax(h);
    double vMin = file.domainMin(v);
    double vMax = file.domainMax(v);
    double finest = Double.MAX_VALUE;
    for (Patch p : slice.patches()) {
      finest = Math.min(finest, Math.min((p.hMax() - p.hMin()) / p.nh(),
          (p.vMax() - p.vMin()) / p.nv()));
    }
    double longer = Math.max(hMax - hMin, vMax - vMin);
    double side = Math.max(600, Math.min(960, 2 * longer / finest));
    double scale = side / longer;
    int width = Math.max(1, (int) Math.round((hMax - hMin) * scale));
    int height = Math.max(1, (int) Math.round((vMax - vMin) * scale));
    int barLeft = LEFT + width + BAR_GAP;
    return new PlotFrame(LEFT, TOP, width, height, hMin, hMax, vMin, vMax, barLeft, BAR_WIDTH);
  }

  /** The finite minimum and maximum of the patches' values, widened when they are equal. */
  private static double[] range(List<Patch> patches) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Patch p : patches) {
      for (double x : p.values()) {
        if (Double.isFinite(x)) {
          lo = Math.min(lo, x);
          hi = Math.max(hi, x);
        }
      }
    }
    if (lo > hi) {
      return new double[] {0, 1};
    }
    if (lo == hi) {
      double half = Math.max(Math.abs(lo), 1.0) * 0.5;
      return new double[] {lo - half, hi + half};
    }
    return new double[] {lo, hi};
  }

  private static void fillCells(BufferedImage image, PlotFrame f, List<Patch> patches,
      double[] range) {
    double span = range[1] - range[0];
    for (Patch p : patches) {
      int c0 = f.firstColumnFrom(p.hMin());
      int c1 = f.firstColumnFrom(p.hMax());
      int r0 = f.firstRowBelow(p.vMax());
      int r1 = f.firstRowBelow(p.vMin());
      for (int r = r0; r < r1; r++) {
        int cv = cell(f.v(r), p.vMin(), p.vMax(), p.nv());
        for (int c = c0; c < c1; c++) {
          int ch = cell(f.h(c), p.hMin(), p.hMax(), p.nh());
          double x = p.values()[cv * p.nh() + ch];
          int rgb = Double.isFinite(x) ? Viridis.rgb((x - range[0]) / span) : NOT_FINITE_RGB;
          image.setRGB(f.left() + c, f.top() + r, rgb);
        }
      }
    }
  }

  private static int cell(double x, double lo, double hi, int n) {
    return Math.max(0, Math.min(n - 1, (int) Math.floor((x - lo) / (hi - lo) * n)));
  }

  private static int smallestBlockPixels(PlotFrame f, List<Patch> patches) {
    int smallest = Integer.MAX_VALUE;
    for (Patch p : patches) {
      smallest = Math.min(smallest, f.firstColumnFrom(p.hMax()) - f.firstColumnFrom(p.hMin()));
      smallest = Math.min(smallest, f.firstRowBelow(p.vMin()) - f.firstRowBelow(p.vMax()));
    }
    return smallest;
  }

  /** Each block's border pixels in its level's colour, coarse levels first. */
  private static void drawOutlines(BufferedImage image, PlotFrame f, List<Patch> patches) {
    List<Patch> byLevel = new ArrayList<>(patches);
    byLevel.sort(Comparator.comparingInt(Patch::level));
    for (Patch p : byLevel) {
      int rgb = levelColor(p.level());
      int c0 = f.firstColumnFrom(p.hMin());
      int c1 = f.firstColumnFrom(p.hMax()) - 1;
      int r0 = f.firstRowBelow(p.vMax());
      int r1 = f.firstRowBelow(p.vMin()) - 1;
      for (int c = c0; c <= c1; c++) {
        image.setRGB(f.left() + c, f.top() + r0, rgb);
        image.setRGB(f.left() + c, f.top() + r1, rgb);
      }
      for (int r = r0; r <= r1; r++) {
        image.setRGB(f.left() + c0, f.top() + r, rgb);
        image.setRGB(f.left() + c1, f.top() + r, rgb);
      }
    }
  }

  private static void drawParticles(BufferedImage image, PlotFrame f, PlotParticles particles) {
    for (int p = 0; p < particles.count(); p++) {
      int c = f.columnOf(particles.h()[p]);
      int r = f.rowOf(particles.v()[p]);
      for (int dr = -1; dr <= 1; dr++) {
        for (int dc = -1; dc <= 1; dc++) {
          if (c + dc >= 0 && c + dc < f.width() && r + dr >= 0 && r + dr < f.height()) {
            image.setRGB(f.left() + c + dc, f.top() + r + dr, PARTICLE_RGB);
          }
        }
      }
    }
  }

  private static void drawColourBar(Graphics2D g, BufferedImage image, PlotFrame f,
      double[] range) {
    for (int r = 0; r < f.height(); r++) {
      int rgb = Viridis.rgb(1.0 - (r + 0.5) / f.height());
      for (int c = 0; c < f.barWidth(); c++) {
        image.setRGB(f.barLeft() + c, f.top() + r, rgb);
      }
    }
    g.setColor(INK);
    g.setStroke(new BasicStroke(1));
    g.drawRect(f.barLeft() - 1, f.top() - 1, f.barWidth() + 1, f.height() + 1);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    int labelX = f.barLeft() + f.barWidth() + 6;
    int tickEnd = f.barLeft() + f.barWidth() + 4;
    int yMax = f.top();
    int yMin = f.top() + f.height() - 1;
    g.setFont(g.getFont().deriveFont(Font.BOLD));
    g.drawString("max " + NumberLabels.precise(range[1], 4), labelX, yMax + fm.getAscent() / 2);
    g.drawString("min " + NumberLabels.precise(range[0], 4), labelX, yMin + fm.getAscent() / 2);
    g.setFont(g.getFont().deriveFont(Font.PLAIN));
    double span = range[1] - range[0];
    for (double t : NumberLabels.ticks(range[0], range[1], 5)) {
      int y = f.top() + (int) Math.round((1.0 - (t - range[0]) / span) * (f.height() - 1));
      if (y - yMax < fm.getHeight() || yMin - y < fm.getHeight()) {
        continue;
      }
      g.drawLine(f.barLeft() + f.barWidth(), y, tickEnd, y);
      g.drawString(NumberLabels.tick(t), labelX, y + fm.getAscent() / 2 - 1);
    }
  }

  private static void drawAxes(Graphics2D g, PlotFrame f, PlotSlice slice) {
    g.setColor(INK);
    g.drawRect(f.left() - 1, f.top() - 1, f.width() + 1, f.height() + 1);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    FontMetrics fm = g.getFontMetrics();
    int bottom = f.top() + f.height();
    double hSpan = f.hMax() - f.hMin();
    double vSpan = f.vMax() - f.vMin();
    for (double t : NumberLabels.ticks(f.hMin(), f.hMax(), Math.max(2, f.width() / 110))) {
      int x = f.left() + (int) Math.round((t - f.hMin()) / hSpan * f.width());
      x = Math.min(x, f.left() + f.width());
      g.drawLine(x, bottom, x, bottom + 5);
      String label = NumberLabels.tick(t);
      g.drawString(label, x - fm.stringWidth(label) / 2, bottom + 7 + fm.getAscent());
    }
    for (double t : NumberLabels.ticks(f.vMin(), f.vMax(), Math.max(2, f.height() / 90))) {
      int y = f.top() + (int) Math.round((f.vMax() - t) / vSpan * f.height());
      y = Math.min(y, bottom);
      g.drawLine(f.left() - 6, y, f.left() - 1, y);
      String label = NumberLabels.tick(t);
      g.drawString(label, f.left() - 9 - fm.stringWidth(label), y + fm.getAscent() / 2 - 1);
    }
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    fm = g.getFontMetrics();
    String hName = "x" + (slice.horizontalAxis() + 1);
    g.drawString(hName, f.left() + (f.width() - fm.stringWidth(hName)) / 2, bottom + 46);
    String vName = "x" + (slice.verticalAxis() + 1);
    Graphics2D rotated = (Graphics2D) g.create();
    rotated.translate(22, f.top() + f.height() / 2 + fm.stringWidth(vName) / 2);
    rotated.rotate(-Math.PI / 2);
    rotated.drawString(vName, 0, 0);
    rotated.dispose();
  }

  private static String subtitle(PhdfFile file, PlotSlice slice, boolean outlined) {
    StringBuilder s = new StringBuilder();
    s.append("t = ").append(NumberLabels.precise(file.time(), 6)).append(", cycle ")
        .append(file.cycle());
    if (file.numDims() == 3) {
      s.append(", slice x").append(slice.normal() + 1).append(" = ")
          .append(NumberLabels.precise(slice.value(), 6));
    }
    s.append(", ").append(slice.patches().size()).append(" blocks");
    if (!outlined) {
      s.append(" (too small to outline)");
    }
    return s.toString();
  }

  private static TreeSet<Integer> levels(List<Patch> patches) {
    TreeSet<Integer> levels = new TreeSet<>();
    for (Patch p : patches) {
      levels.add(p.level());
    }
    return levels;
  }

  private static void drawTitle(Graphics2D g, PlotFrame f, String title, String subtitle,
      TreeSet<Integer> levels) {
    g.setColor(INK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, f.left(), 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.drawString(subtitle, f.left(), 42);
    FontMetrics fm = g.getFontMetrics();
    int x = f.left() + f.width();
    int y = f.top() - 12;
    for (int level : levels.descendingSet()) {
      String label = "level " + level;
      x -= fm.stringWidth(label);
      g.setColor(INK);
      g.drawString(label, x, y);
      x -= 16;
      g.setColor(new Color(BLOCKS_BACKGROUND_RGB));
      g.fillRect(x, y - 10, 12, 12);
      g.setColor(new Color(levelColor(level)));
      g.fillRect(x + 2, y - 8, 8, 8);
      x -= 14;
    }
  }
}
