package org.metope.mesh.update;

import java.util.List;
import java.util.Arrays;
import org.metope.kernels.body.StageKernels;
import org.metope.kernels.body.StageLaunch;
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
 *
 * <p>The bodies are {@link StageKernels}'; {@link #divergenceLaunch} and {@link
 * #weightedSumLaunch} describe the same work as a {@link StageLaunch} for a device-resident
 * backend, entry by entry in the order the loops here take.
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
   * dudt = -du / V}. A {@code FINE} field's divergence runs over its own interior cells with its
   * own widths ({@code MeshBlock.fineCellBounds()}, {@code fineCoords()}), as Parthenon's {@code
   * Stokes} at {@code CellLevel::fine} does in its {@code fine_advection} example.
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
    // This thread's scratch, so that a warm step allocates nothing.
    final int[] cellBox = interiorBox(in.block(0).cellBounds(), BOX.get());
    final int[] fineBox = interiorBox(in.block(0).fineCellBounds(), FINE_BOX.get());
    final int[] at = ROW_OFFSETS.get();
    for (int b = 0; b < nb; b++) {
      for (int f : fields) {
        if (!divergenceOffsets(dataOut, fluxes, f, b, nb, ndim, at)) {
          continue;
        }
        boolean fine = in.state().field(f).metadata().isFine();
        int[] box = fine ? fineBox : cellBox;
        UniformCartesian coords = fine ? in.block(b).fineCoords() : in.block(b).coords();
        int inst = layout.fluxInstance(f, 1);
        box[JS] = layout.jStride(inst);
        box[KS] = layout.kStride(inst);
        box[CS] = layout.componentStride(inst);
        box[NCOMP] = layout.numComponents(inst);
        divergence(a, at[0], at[1], at[2], at[3], coords, box);
      }
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * The offsets {@code out, fx, fy, fz} of field {@code f} on block {@code b} into {@code at} (-1
   * for an inactive direction); false when the block has no storage for the field.
   */
  private static boolean divergenceOffsets(int[] dataOut, int[] fluxes, int f, int b, int nb,
      int ndim, int[] at) {
    at[0] = dataOut[ArenaLayout.tableSlot(f, b, nb)];
    at[1] = fluxes[ArenaLayout.fluxTableSlot(f, 1, b, nb)];
    at[2] = ndim >= 2 ? fluxes[ArenaLayout.fluxTableSlot(f, 2, b, nb)] : -1;
    at[3] = ndim == 3 ? fluxes[ArenaLayout.fluxTableSlot(f, 3, b, nb)] : -1;
    return at[0] >= 0 && at[1] >= 0;
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

  private static final ThreadLocal<int[]> BOX = ThreadLocal.withInitial(() -> new int[10]);
  private static final ThreadLocal<int[]> FINE_BOX = ThreadLocal.withInitial(() -> new int[10]);
  private static final ThreadLocal<int[]> ROW_OFFSETS = ThreadLocal.withInitial(() -> new int[4]);

  /**
   * Interior bounds {@code is, ie, jb, je, kb, ke} written into {@code box}, whose last four
   * entries are room for strides.
   */
  private static int[] interiorBox(IndexShape cells, int[] box) {
    for (int axis = 0; axis < 3; axis++) {
      box[2 * axis] = cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      box[2 * axis + 1] = cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    }
    return box;
  }

  /**
   * One block and field: the divergence along x1, plus x2 when {@code fy >= 0}, plus x3 when
   * {@code fz >= 0}, in that order. The row is {@link StageKernels#divergenceRow}, the body a
   * device launch runs too; a small method of its own, so that the JIT compiles it after the first
   * few blocks instead of after many steps.
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
          StageKernels.divergenceRow(a, out + row, fx + row, fy + row, fz + row, ndim, is, ie, js,
              ks, a1, a2, a3, vol);
        }
      }
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
        StageKernels.weightedSum(a, zo, xo, yo, length, w1, w2);
      }
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * {@link #fluxDivergence} as a launch: one entry per block, field and component with fluxes
   * and storage, its rows the interior rows of the block.
   */
  public static StageLaunch divergenceLaunch(MeshData in, MeshData dudt, int[] fields) {
    final int nb = in.numBlocks();
    final StageLaunch.Kind kind = StageLaunch.Kind.DIVERGENCE;
    if (nb == 0 || fields.length == 0) {
      return new StageLaunch(kind, new int[0], new double[0], 0);
    }
    final ArenaLayout layout = in.layout();
    final int ndim = layout.fluxDirections();
    final int[] dataOut = dudt.dataOffsets();
    final int[] fluxes = in.fluxOffsets();
    final int[] cellBox = interiorBox(in.block(0).cellBounds(), new int[10]);
    final int[] fineBox = interiorBox(in.block(0).fineCellBounds(), new int[10]);
    int[] t = new int[0];
    double[] r = new double[0];
    int count = 0;
    final int[] at = new int[4];
    for (int b = 0; b < nb; b++) {
      for (int f : fields) {
        if (!divergenceOffsets(dataOut, fluxes, f, b, nb, ndim, at)) {
          continue;
        }
        boolean fine = in.state().field(f).metadata().isFine();
        int[] box = fine ? fineBox : cellBox;
        UniformCartesian coords = fine ? in.block(b).fineCoords() : in.block(b).coords();
        int inst = layout.fluxInstance(f, 1);
        int fy = at[2];
        int fz = at[3];
        for (int l = 0; l < layout.numComponents(inst); l++) {
          int c = l * layout.componentStride(inst);
          if (count * kind.width == t.length) {
            t = Arrays.copyOf(t, Math.max(kind.width, 2 * t.length));
            r = Arrays.copyOf(r, t.length / kind.width * kind.realWidth);
          }
          int[] entry = {at[0] + c, at[1] + c, fy + c, fz + c, fy < 0 ? 1 : fz < 0 ? 2 : 3,
              box[IS], box[IE], box[JB], box[JE], box[KB], box[KE], layout.jStride(inst),
              layout.kStride(inst)};
          System.arraycopy(entry, 0, t, count * kind.width, kind.width);
          int q = count * kind.realWidth;
          r[q] = coords.faceArea(0);
          r[q + 1] = coords.faceArea(1);
          r[q + 2] = coords.faceArea(2);
          r[q + 3] = coords.cellVolume();
          count++;
        }
      }
    }
    return new StageLaunch(kind, t, r, count);
  }

  /**
   * {@link #weightedSumData} as a launch ({@code out = w1 in1 + w2 in2}, the weights given at
   * each launch): one entry per field and block where all three have storage.
   */
  public static StageLaunch weightedSumLaunch(int[] fields, MeshData in1, MeshData in2,
      MeshData out) {
    final StageLaunch.Kind kind = StageLaunch.Kind.WEIGHTED_SUM;
    final int[] x = in1.dataOffsets();
    final int[] y = in2.dataOffsets();
    final int[] z = out.dataOffsets();
    final int nb = in1.numBlocks();
    final ArenaLayout layout = in1.layout();
    int[] t = new int[kind.width * fields.length * nb];
    int count = 0;
    for (int f : fields) {
      final int length = layout.blockLength(layout.dataInstance(f, in1.container()));
      for (int b = 0; b < nb; b++) {
        int slot = ArenaLayout.tableSlot(f, b, nb);
        if (x[slot] < 0 || y[slot] < 0 || z[slot] < 0) {
          continue;
        }
        int at = kind.width * count++;
        t[at + StageLaunch.Z] = z[slot];
        t[at + StageLaunch.X] = x[slot];
        t[at + StageLaunch.Y] = y[slot];
        t[at + StageLaunch.W_LENGTH] = length;
      }
    }
    return new StageLaunch(kind, t, new double[0], count);
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
