package org.metope.outputs.plot;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.input.InputError;

/**
 * The plane a plot shows: for a 2D file the (x1, x2) plane, for a 3D file the plane {@code
 * x<normal> = value}; and the blocks it cuts, each as a rectangle of cells ({@link Patch}).
 *
 * <p>A block is cut when {@code min <= value < max} along the normal (the domain's upper face
 * belongs to the blocks below it); the cells shown are those whose slab holds {@code value}.
 * The horizontal axis is the lower of the two in-plane axes (x1 for a normal x3 or x2, x2 for a
 * normal x1), the vertical one the higher.
 */
public final class PlotSlice {
  /** A block cut by the plane: bounds in the plane, level and cells ({@code [v * nh + h]}). */
  public record Patch(int block, int level, double hMin, double hMax, double vMin, double vMax,
      int nh, int nv, double[] values) {}

  private final int normal;
  private final double value;
  private final int hAxis;
  private final int vAxis;
  private final List<Patch> patches;

  private PlotSlice(int normal, double value, List<Patch> patches) {
    this.normal = normal;
    this.value = value;
    this.hAxis = horizontalAxis(normal);
    this.vAxis = verticalAxis(normal);
    this.patches = List.copyOf(patches);
  }

  /**
   * The plane of {@code file} at {@code x<normal + 1> = value}; {@code normal} negative picks x3
   * at the domain's centre. {@code values} (from {@link PhdfFile#values}) null draws no cells.
   *
   * @throws InputError for a 1D file, a slice of a 2D file other than along x3, or a value
   *     outside the domain
   */
  public static PlotSlice of(PhdfFile file, int normal, double value, double[][] values) {
    String where = file.path().toString();
    if (file.numDims() < 2) {
      throw InputError.at(where, "a 1D file has no plane to plot", "a 2D or 3D output");
    }
    int axis = normal < 0 ? 2 : normal;
    double at = normal < 0 ? 0.5 * (file.domainMin(2) + file.domainMax(2)) : value;
    if (file.numDims() == 2 && axis != 2) {
      throw InputError.at(where, "--slice x" + (axis + 1) + " of a 2D file is a line",
          "no --slice, or --slice x3=VALUE, for a 2D output");
    }
    double lo = file.domainMin(axis);
    double hi = file.domainMax(axis);
    if (!(at >= lo && at <= hi)) {
      throw InputError.at(where, "--slice x" + (axis + 1) + "=" + value + " is outside the domain",
          "a value from " + lo + " to " + hi);
    }
    List<Patch> patches = new ArrayList<>();
    for (int b = 0; b < file.numBlocks(); b++) {
      double bmin = file.blockMin(b, axis);
      double bmax = file.blockMax(b, axis);
      boolean cut = at >= bmin && (at < bmax || (at == bmax && bmax == hi));
      if (cut) {
        int cell = slab(at, bmin, bmax, file.blockCells(axis));
        patches.add(patch(file, b, axis, cell, values == null ? null : values[b]));
      }
    }
    return new PlotSlice(axis, at, patches);
  }

  /** The cell (of {@code n} on {@code [bmin, bmax]}) whose slab holds {@code x}, clamped. */
  static int slab(double x, double bmin, double bmax, int n) {
    return Math.max(0, Math.min(n - 1, (int) Math.floor((x - bmin) / (bmax - bmin) * n)));
  }

  private static int horizontalAxis(int normal) {
    return normal == 0 ? 1 : 0;
  }

  private static int verticalAxis(int normal) {
    return normal == 2 ? 1 : 2;
  }

  /** Block {@code b} cut at cell {@code cell} along {@code normal}, with its cells' values. */
  private static Patch patch(PhdfFile file, int b, int normal, int cell, double[] block) {
    int hAxis = horizontalAxis(normal);
    int vAxis = verticalAxis(normal);
    int nh = file.blockCells(hAxis);
    int nv = file.blockCells(vAxis);
    double[] cells = null;
    if (block != null) {
      int nx = file.blockCells(0);
      int ny = file.blockCells(1);
      cells = new double[nh * nv];
      int[] ijk = new int[3];
      ijk[normal] = cell;
      for (int v = 0; v < nv; v++) {
        for (int h = 0; h < nh; h++) {
          ijk[hAxis] = h;
          ijk[vAxis] = v;
          cells[v * nh + h] = block[(ijk[2] * ny + ijk[1]) * nx + ijk[0]];
        }
      }
    }
    return new Patch(b, file.level(b), file.blockMin(b, hAxis), file.blockMax(b, hAxis),
        file.blockMin(b, vAxis), file.blockMax(b, vAxis), nh, nv, cells);
  }

  /** The axis normal to the plane (0, 1, 2 for x1, x2, x3). */
  public int normal() {
    return normal;
  }

  /** Where the plane cuts the normal axis. */
  public double value() {
    return value;
  }

  /** The horizontal axis of the picture. */
  public int horizontalAxis() {
    return hAxis;
  }

  /** The vertical axis of the picture. */
  public int verticalAxis() {
    return vAxis;
  }

  /** The blocks the plane cuts, in the file's block order. */
  public List<Patch> patches() {
    return patches;
  }
}
