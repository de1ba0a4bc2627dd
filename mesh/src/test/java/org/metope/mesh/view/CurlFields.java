package org.metope.mesh.view;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * Divergence-free face fields for tests: the discrete curl of a smooth vector potential (the
 * circulation of its edge values around each face over the face's area, so every cell's
 * divergence cancels to round-off), and the largest divergence of a face field.
 */
public final class CurlFields {
  private static final double TWO_PI = 2 * Math.PI;
  private static final TopologicalElement[] FACES = {TopologicalElement.F1,
      TopologicalElement.F2, TopologicalElement.F3};
  private static final TopologicalElement[] EDGES = {TopologicalElement.E1,
      TopologicalElement.E2, TopologicalElement.E3};

  private CurlFields() {}

  /** Component {@code d} of the vector potential at {@code x}. */
  static double potential(int d, double[] x) {
    return switch (d) {
      case 0 -> 0.3 * Math.sin(TWO_PI * (x[1] + 2 * x[2]));
      case 1 -> 0.2 * Math.cos(TWO_PI * (x[0] - x[2]));
      default -> Math.sin(TWO_PI * x[0]) * Math.sin(TWO_PI * x[1])
          + 0.4 * Math.cos(TWO_PI * (x[0] + 2 * x[1]));
    };
  }

  /** Where element {@code el}'s value {@code (k, j, i)} lies on a block with coordinates xs. */
  public static double[] position(UniformCartesian xs, IndexShape shape, TopologicalElement el,
      int k, int j, int i) {
    int[] idx = {i, j, k};
    double[] x = new double[3];
    for (int a = 0; a < 3; a++) {
      x[a] = !shape.isActive(a) ? 0 : el.offset(a) == 1 ? xs.xf(a, idx[a]) : xs.xc(a, idx[a]);
    }
    return x;
  }

  /** The discrete curl of the potential on face {@code face} (0, 1, 2) at {@code (k, j, i)}. */
  public static double curl(UniformCartesian xs, IndexShape shape, int face, int k, int j,
      int i) {
    int u = (face + 1) % 3;
    int v = (face + 2) % 3;
    double sum = 0;
    if (shape.isActive(u)) {
      sum += difference(xs, shape, v, u, k, j, i) / xs.dx(u);
    }
    if (shape.isActive(v)) {
      sum -= difference(xs, shape, u, v, k, j, i) / xs.dx(v);
    }
    return sum;
  }

  /** Potential component {@code d} on its edge: one index up along {@code axis} minus here. */
  private static double difference(UniformCartesian xs, IndexShape shape, int d, int axis,
      int k, int j, int i) {
    int[] up = {i, j, k};
    up[axis]++;
    return potential(d, position(xs, shape, EDGES[d], up[2], up[1], up[0]))
        - potential(d, position(xs, shape, EDGES[d], k, j, i));
  }

  /** Sets component 0 of face field {@code name} to the curl on every face, ghosts included. */
  public static void fill(MeshData md, String name) {
    FieldView v = FieldView.of(md, name);
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian xs = md.block(b).coords();
      IndexShape shape = md.block(b).cellBounds();
      for (int f = 0; f < 3; f++) {
        for (int k = shape.start(2, IndexDomain.ENTIRE, FACES[f]);
            k <= shape.end(2, IndexDomain.ENTIRE, FACES[f]); k++) {
          for (int j = shape.start(1, IndexDomain.ENTIRE, FACES[f]);
              j <= shape.end(1, IndexDomain.ENTIRE, FACES[f]); j++) {
            for (int i = shape.start(0, IndexDomain.ENTIRE, FACES[f]);
                i <= shape.end(0, IndexDomain.ENTIRE, FACES[f]); i++) {
              v.set(FACES[f], b, 0, k, j, i, curl(xs, shape, f, k, j, i));
            }
          }
        }
      }
    }
  }

  /** The largest |div| dx of component 0 of face field {@code name} over interior cells. */
  public static double maxDivergence(MeshData md, String name) {
    FieldView v = FieldView.of(md, name);
    double most = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexShape shape = md.block(b).cellBounds();
      UniformCartesian xs = md.block(b).coords();
      for (int k = shape.start(2, IndexDomain.INTERIOR, TopologicalElement.CC);
          k <= shape.end(2, IndexDomain.INTERIOR, TopologicalElement.CC); k++) {
        for (int j = shape.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
            j <= shape.end(1, IndexDomain.INTERIOR, TopologicalElement.CC); j++) {
          for (int i = shape.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
              i <= shape.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
            int[] up = {i, j, k};
            double d = 0;
            for (int a = 0; a < 3; a++) {
              if (shape.isActive(a)) {
                up[a]++;
                d += (v.get(FACES[a], b, 0, up[2], up[1], up[0])
                    - v.get(FACES[a], b, 0, k, j, i)) / xs.dx(a);
                up[a]--;
              }
            }
            most = Math.max(most, Math.abs(d) * xs.dx(0));
          }
        }
      }
    }
    return most;
  }
}
