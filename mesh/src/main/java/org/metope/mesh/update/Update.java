package org.metope.mesh.update;

import java.util.List;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.tasking.TaskStatus;

/**
 * The generic stage-update steps a driver strings together (Parthenon's {@code Update::}
 * helpers): the divergence of face fluxes, and weighted sums of whole containers.
 *
 * <p>Each step loops over the blocks of a partition and the fields it selects, reading the arena
 * through the partition's offset tables, with {@code i} innermost. The arithmetic is Parthenon's,
 * operation for operation, so that results agree bit for bit with a Parthenon build that does not
 * contract multiply-adds (its default x86-64 build).
 *
 * <p>Field selections are {@code int[]} field ids from {@link #fieldIds}; drivers compute them
 * once when they build their task lists.
 */
public final class Update {
  private Update() {}

  /** Ids of the fields that carry every one of {@code flags}, ascending. */
  public static int[] fieldIds(ResolvedState state, MetadataFlag... flags) {
    List<FieldInfo> fields = state.fieldsWith(flags);
    int[] ids = new int[fields.size()];
    for (int n = 0; n < ids.length; n++) {
      ids[n] = fields.get(n).id();
    }
    return ids;
  }

  /**
   * {@code dudt = -div(F)} on the interior cells of every block, for every field with fluxes
   * (Parthenon's {@code FluxDivergence}): per cell, {@code du = (A1 F1(i+1) - A1 F1(i))}, then
   * {@code du += (A2 F2(j+1) - A2 F2(j))} in 2D and 3D and the same along x3 in 3D, and {@code
   * dudt = -du / V}.
   *
   * @param in the container whose fields' fluxes are read (fluxes are shared by containers)
   * @param dudt the container receiving the divergence
   * @param fields ids of cell fields with fluxes
   */
  public static TaskStatus fluxDivergence(MeshData in, MeshData dudt, int[] fields) {
    final int nb = in.numBlocks();
    if (nb == 0 || fields.length == 0) {
      return TaskStatus.COMPLETE;
    }
    final double[] a = in.data();
    final int[] dataOut = dudt.dataOffsets();
    final int[] fluxes = in.fluxOffsets();
    final ArenaLayout layout = in.layout();
    final int ndim = layout.fluxDirections();
    final int[] box = interiorBox(in.block(0).cellBounds());
    for (int b = 0; b < nb; b++) {
      UniformCartesian coords = in.block(b).coords();
      for (int f : fields) {
        int out = dataOut[ArenaLayout.tableSlot(f, b, nb)];
        int fx = fluxes[ArenaLayout.fluxTableSlot(f, 1, b, nb)];
        if (out < 0 || fx < 0) {
          continue;
        }
        int inst = layout.fluxInstance(f, 1);
        box[JS] = layout.jStride(inst);
        box[KS] = layout.kStride(inst);
        box[CS] = layout.componentStride(inst);
        box[NCOMP] = layout.numComponents(inst);
        int fy = ndim >= 2 ? fluxes[ArenaLayout.fluxTableSlot(f, 2, b, nb)] : -1;
        int fz = ndim == 3 ? fluxes[ArenaLayout.fluxTableSlot(f, 3, b, nb)] : -1;
        divergence(a, out, fx, fy, fz, coords, box);
      }
    }
    return TaskStatus.COMPLETE;
  }

  private static final int IS = 0;
  private static final int IE = 1;
  private static final int JB = 2;
  private static final int JE = 3;
  private static final int KB = 4;
  private static final int KE = 5;
  private static final int JS = 6;
  private static final int KS = 7;
  private static final int CS = 8;
  private static final int NCOMP = 9;

  /** Interior bounds {@code is, ie, jb, je, kb, ke}, followed by room for strides. */
  private static int[] interiorBox(IndexShape cells) {
    int[] box = new int[10];
    for (int axis = 0; axis < 3; axis++) {
      box[2 * axis] = cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      box[2 * axis + 1] = cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    }
    return box;
  }

  /**
   * One block and field: the divergence along x1, plus x2 when {@code fy >= 0}, plus x3 when
   * {@code fz >= 0}, in that order. The row is a small method of its own so that the JIT compiles
   * it after the first few blocks instead of after many steps.
   */
  private static void divergence(double[] a, int out, int fx, int fy, int fz,
      UniformCartesian coords, int[] box) {
    final double a1 = coords.faceArea(0);
    final double a2 = coords.faceArea(1);
    final double a3 = coords.faceArea(2);
    final double vol = coords.cellVolume();
    final int ndim = fy < 0 ? 1 : fz < 0 ? 2 : 3;
    final int js = box[JS];
    final int ks = box[KS];
    final int is = box[IS];
    final int ie = box[IE];
    for (int l = 0; l < box[NCOMP]; l++) {
      for (int k = box[KB]; k <= box[KE]; k++) {
        for (int j = box[JB]; j <= box[JE]; j++) {
          final int row = l * box[CS] + k * ks + j * js;
          divergenceRow(a, out + row, fx + row, fy + row, fz + row, ndim, is, ie, js, ks, a1, a2,
              a3, vol);
        }
      }
    }
  }

  /**
   * One row of {@code dudt = -div(F)} in {@code ndim} dimensions; the flux offsets {@code y} and
   * {@code z} are read only when their dimension is active. {@code ndim} does not change inside
   * the loop, so C2 unswitches it into one plain loop per dimension count, each with the
   * arithmetic of Parthenon's (checked bit for bit against its outputs).
   */
  private static void divergenceRow(double[] a, int o, int x, int y, int z, int ndim, int is,
      int ie, int js, int ks, double a1, double a2, double a3, double vol) {
    for (int i = is; i <= ie; i++) {
      double du = a1 * a[x + i + 1] - a1 * a[x + i];
      if (ndim >= 2) {
        du += a2 * a[y + i + js] - a2 * a[y + i];
      }
      if (ndim == 3) {
        du += a3 * a[z + i + ks] - a3 * a[z + i];
      }
      a[o + i] = -du / vol;
    }
  }

  /**
   * {@code out = w1 in1 + w2 in2} on every cell, ghosts included, of the selected fields
   * (Parthenon's {@code WeightedSumData}); blocks where any of the three is unallocated are left
   * alone. {@code out} may be {@code in1} or {@code in2}.
   */
  public static TaskStatus weightedSumData(int[] fields, MeshData in1, MeshData in2, double w1,
      double w2, MeshData out) {
    final double[] a = in1.data();
    final int[] x = in1.dataOffsets();
    final int[] y = in2.dataOffsets();
    final int[] z = out.dataOffsets();
    final int nb = in1.numBlocks();
    final ArenaLayout layout = in1.layout();
    for (int f : fields) {
      final int length = layout.blockLength(layout.dataInstance(f, in1.container()));
      for (int b = 0; b < nb; b++) {
        int slot = ArenaLayout.tableSlot(f, b, nb);
        int xo = x[slot];
        int yo = y[slot];
        int zo = z[slot];
        if (xo < 0 || yo < 0 || zo < 0) {
          continue;
        }
        weightedSum(a, zo, xo, yo, length, w1, w2);
      }
    }
    return TaskStatus.COMPLETE;
  }

  private static void weightedSum(double[] a, int z, int x, int y, int length, double w1,
      double w2) {
    for (int n = 0; n < length; n++) {
      a[z + n] = w1 * a[x + n] + w2 * a[y + n];
    }
  }

  /**
   * {@code c1 = w c1 + (1 - w) c2} on the selected fields (Parthenon's {@code
   * AverageIndependentData} when given the independent fields).
   */
  public static TaskStatus averageData(int[] fields, MeshData c1, MeshData c2, double w) {
    return weightedSumData(fields, c1, c2, w, 1.0 - w, c1);
  }

  /**
   * {@code out = in + dt dudt} on the selected fields (Parthenon's {@code UpdateIndependentData}
   * when given the independent fields).
   */
  public static TaskStatus updateData(int[] fields, MeshData in, MeshData dudt, double dt,
      MeshData out) {
    return weightedSumData(fields, in, dudt, 1.0, dt, out);
  }
}
