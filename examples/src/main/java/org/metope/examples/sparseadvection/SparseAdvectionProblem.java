package org.metope.examples.sparseadvection;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * The initial state of the sparse_advection example (Parthenon's {@code ProblemGenerator}): field
 * {@code sparse_n} is 1 in the interior cells whose centre lies within {@code init_size} of
 * ({@code x0[n]}, {@code y0[n]}) and 0 elsewhere, and it is allocated only on the blocks that
 * have such a cell; other blocks leave it unallocated. With {@code restart_test}, a disc of
 * radius {@code init_size / sqrt 2} at the origin allocates {@code shape_shift_1}, {@code _3}
 * and {@code _4} on the blocks it touches and sets every component of them and of {@code
 * dense_A}, {@code dense_B} there to the same 1-or-0 disc.
 *
 * <p>Distances are squared sums of cell-centre offsets with {@code z} the x3 centre (0 on the
 * shipped deck), compared with {@code <} as in Parthenon, so the cells set are bit for bit
 * Parthenon's.
 */
final class SparseAdvectionProblem {
  private final double size;
  private final double[] x0;
  private final double[] y0;
  private final boolean restartTest;

  SparseAdvectionProblem(Params params) {
    double r = params.getDouble("init_size");
    this.size = r * r;
    this.x0 = params.get("x0", double[].class);
    this.y0 = params.get("y0", double[].class);
    this.restartTest = params.getBoolean("restart_test");
  }

  /** Sets block {@code b} of {@code md} (a partition of {@code base}). */
  void generate(MeshData md, int b) {
    for (int f = restartTest ? -1 : 0; f < SparseAdvectionPackage.NUM_FIELDS; f++) {
      boolean restartFields = f == -1;
      double thisSize = restartFields ? 0.5 * size : size;
      double cx = restartFields ? 0.0 : x0[f];
      double cy = restartFields ? 0.0 : y0[f];
      if (!anyInside(md, b, cx, cy, thisSize)) {
        continue;
      }
      List<FieldInfo> fields = restartFields ? restartTestFields(md.state())
          : List.of(md.state().field(SparseAdvectionPackage.POOL + "_" + f));
      FieldStorage storage = md.storage();
      for (FieldInfo field : fields) {
        if (field.isSparse()) {
          storage.allocateSparse(field.id(), md.blockIndex(b));
        }
      }
      for (FieldInfo field : fields) {
        fill(md, b, field, cx, cy, thisSize);
      }
    }
  }

  /** {@code dense_A}, {@code dense_B} and the {@code shape_shift} pool. */
  private static List<FieldInfo> restartTestFields(ResolvedState state) {
    List<FieldInfo> fields = new ArrayList<>();
    fields.add(state.field("dense_A"));
    fields.add(state.field("dense_B"));
    fields.addAll(state.sparseFields("shape_shift"));
    return fields;
  }

  private static boolean anyInside(MeshData md, int b, double cx, double cy, double size) {
    UniformCartesian coords = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          if (radiusSquared(coords, k, j, i, cx, cy) < size) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static void fill(MeshData md, int b, FieldInfo field, double cx, double cy,
      double size) {
    UniformCartesian coords = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    double[] a = md.data();
    for (int c = 0; c < field.numComponents(); c++) {
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          for (int i = start(cells, 0); i <= end(cells, 0); i++) {
            a[md.index(field.id(), b, c, k, j, i)] =
                radiusSquared(coords, k, j, i, cx, cy) < size ? 1.0 : 0.0;
          }
        }
      }
    }
  }

  private static double radiusSquared(UniformCartesian coords, int k, int j, int i, double cx,
      double cy) {
    double x = coords.x1c(i) - cx;
    double y = coords.x2c(j) - cy;
    double z = coords.x3c(k);
    return x * x + y * y + z * z;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
