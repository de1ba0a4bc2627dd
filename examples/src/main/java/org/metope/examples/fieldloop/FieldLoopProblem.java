package org.metope.examples.fieldloop;

import static org.metope.mesh.geometry.TopologicalElement.F1;
import static org.metope.mesh.geometry.TopologicalElement.F2;
import static org.metope.mesh.geometry.TopologicalElement.F3;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;

/**
 * The field loop at the start (Gardiner and Stone's test): {@code B = curl(A z)} with the vector
 * potential {@code A = amplitude (radius - r)} inside the loop and 0 outside, {@code r} the
 * distance from the domain's centre. Each face value is the circulation of {@code A} around the
 * face over its area (differences of {@code A} at the face's corners), so every cell starts
 * divergence-free to round-off; {@code B3} is 0 (in 3D the loop is a tube along x3).
 */
final class FieldLoopProblem {
  private FieldLoopProblem() {}

  /**
   * The problem generator: sets {@code B} on every face of block {@code b}, ghosts included (in 3D
   * the same in every x3 layer; the top layer of x3 faces is left to the exchange).
   */
  static void generate(MeshData md, int b) {
    Params p = FieldLoopPackage.params(md);
    double amplitude = p.getDouble("amplitude");
    double radius = p.getDouble("radius");
    var size = md.block(b).mesh().config().meshSize();
    double cx = 0.5 * (size.xmin(0) + size.xmax(0));
    double cy = 0.5 * (size.xmin(1) + size.xmax(1));
    UniformCartesian x = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    FieldView field = FieldView.of(md, "B");
    int ni = cells.entireNcells(0);
    int nj = cells.entireNcells(1);
    for (int k = 0; k < cells.entireNcells(2); k++) {
      for (int j = 0; j <= nj; j++) {
        for (int i = 0; i <= ni; i++) {
          double a00 = potential(amplitude, radius, x.xf(0, i) - cx, x.xf(1, j) - cy);
          double a01 = potential(amplitude, radius, x.xf(0, i) - cx, x.xf(1, j + 1) - cy);
          double a10 = potential(amplitude, radius, x.xf(0, i + 1) - cx, x.xf(1, j) - cy);
          if (j < nj) {
            field.set(F1, b, 0, k, j, i, (a01 - a00) / x.dx(1));
          }
          if (i < ni) {
            field.set(F2, b, 0, k, j, i, -(a10 - a00) / x.dx(0));
          }
          if (i < ni && j < nj) {
            field.set(F3, b, 0, k, j, i, 0.0);
          }
        }
      }
    }
  }

  private static double potential(double amplitude, double radius, double dx, double dy) {
    double r = Math.sqrt(dx * dx + dy * dy);
    return r < radius ? amplitude * (radius - r) : 0.0;
  }
}
