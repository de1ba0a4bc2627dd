package org.metope.outputs.plot;

/**
 * Where things are in a plot picture: the plot area ({@code width x height} pixels from {@code
 * (left, top)}) showing the physical rectangle {@code [hMin, hMax] x [vMin, vMax]} at one scale
 * for both axes, and the colour bar ({@code barWidth x height} pixels from {@code (barLeft,
 * top)}).
 *
 * <p>Column {@code c} of the plot area (0 = leftmost) shows the point whose horizontal coordinate
 * is {@code hMin + (c + 0.5) / width * (hMax - hMin)}; row {@code r} (0 = top) the vertical
 * coordinate {@code vMax - (r + 0.5) / height * (vMax - vMin)}. A cell is drawn on the pixels whose
 * centres it holds, so cells and blocks tile the area without gaps or overlaps.
 */
public record PlotFrame(int left, int top, int width, int height, double hMin, double hMax,
    double vMin, double vMax, int barLeft, int barWidth) {

  /** Horizontal coordinate of the centre of plot-area column {@code c}. */
  public double h(int c) {
    return hMin + (c + 0.5) / width * (hMax - hMin);
  }

  /** Vertical coordinate of the centre of plot-area row {@code r}. */
  public double v(int r) {
    return vMax - (r + 0.5) / height * (vMax - vMin);
  }

  /** The first column whose centre is at or right of {@code h} (may be {@code width}). */
  public int firstColumnFrom(double h) {
    int c = (int) Math.ceil((h - hMin) / (hMax - hMin) * width - 0.5);
    return Math.max(0, Math.min(width, c));
  }

  /** The first row whose centre is below {@code v} (may be {@code height}). */
  public int firstRowBelow(double v) {
    int r = (int) Math.floor((vMax - v) / (vMax - vMin) * height - 0.5) + 1;
    return Math.max(0, Math.min(height, r));
  }

  /** The column whose pixel holds horizontal coordinate {@code h}, clamped to the area. */
  public int columnOf(double h) {
    int c = (int) Math.floor((h - hMin) / (hMax - hMin) * width);
    return Math.max(0, Math.min(width - 1, c));
  }

  /** The row whose pixel holds vertical coordinate {@code v}, clamped to the area. */
  public int rowOf(double v) {
    int r = (int) Math.floor((vMax - v) / (vMax - vMin) * height);
    return Math.max(0, Math.min(height - 1, r));
  }
}
