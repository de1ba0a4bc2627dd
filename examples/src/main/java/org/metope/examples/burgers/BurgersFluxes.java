package org.metope.examples.burgers;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * Parthenon-VIBE's fluxes (its {@code CalculateFluxes}): for every block and active direction,
 * the face states of every component of {@code U} ({@link Reconstruction}), then the HLL flux of
 * each face.
 *
 * <p><b>HLL.</b> With {@code upl}, {@code upr} the left and right states of the velocity component
 * normal to the face, the wave speeds are {@code sl = min(upl, upr, 0)} and {@code sr = max(upl,
 * upr, 0)}; the velocity fluxes are {@code 0.5 (sr ul upl - sl ur upr + sl sr (ur - ul)) / d} and
 * the scalar fluxes {@code (sr upl ql - sl upr qr + sl sr (qr - ql)) / d}, with {@code d = sr - sl
 * + (sl sr == 0 ? 1 : 0)}. The last term is Parthenon's guard against a zero denominator; it also
 * applies when only one speed is zero (supersonic faces), which scales such fluxes by {@code
 * |s| / (|s| + 1)}. Metope keeps it, since the benchmark's answers are defined by Parthenon's code.
 *
 * <p><b>Scratch instead of fields.</b> Parthenon stores the face states of every block in six
 * fields ({@code Ulx, Urx, Uly, Ury, Ulz, Urz}), six copies of {@code U} per block. Here each
 * thread reconstructs one block and one direction at a time into two block-sized scratch arrays of
 * its own ({@code ql} and {@code qr}, laid out like the block, a face's states at the index of the
 * cell above it), so face states cost 2 x {@code U} per thread instead of 6 x {@code U} per block;
 * the HLL loops ({@link HllRows}) add nine rows of a k plane each. Scratch is allocated on a
 * thread's first call and reused; nothing is allocated per step.
 *
 * <p><b>On a device</b> ({@link #FUNCTION}'s launches) there is no scratch: the package's face
 * kernels ({@link BurgersFaceFlux}, the same bits as these loops) compute each face's states where
 * they need them.
 */
final class BurgersFluxes {
  /** The package's flux function: {@link #calculateFluxes} on the host, launches on a device. */
  static final FluxFunction FUNCTION = new FluxFunction() {
    @Override
    public void calculateFluxes(MeshData md, int[] fields) {
      BurgersFluxes.calculateFluxes(md, fields);
    }

    @Override
    public List<StageLaunch> fluxLaunches(MeshData md, int[] fields) {
      List<StageLaunch> launches = new ArrayList<>();
      for (int dir = 1; dir <= md.layout().fluxDirections(); dir++) {
        launches.add(BurgersFaceFlux.KERNELS[dir].launch(md));
      }
      return launches;
    }
  };

  /** Indices of {@link #SCRATCH}'s rows: a k plane of faces each, for {@link HllRows}. */
  private static final int UPL = 2;
  private static final int UPR = 3;
  private static final int SL = 4;
  private static final int SR = 5;
  private static final int DEN = 6;
  private static final int INV = 7;
  private static final int LEFT = 8;
  private static final int RIGHT = 9;
  private static final int OUT = 10;

  /**
   * Per thread: ql, qr (block-sized), then the rows of {@link HllRows} (a k plane each, from {@link
   * ScratchRows}: one alignment for all). Grown when a bigger block comes.
   */
  private static final ThreadLocal<double[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new double[OUT + 1][0]);

  private BurgersFluxes() {}

  /**
   * Computes the fluxes of {@code U} on every block of {@code md} (the package's flux function;
   * {@code U} is its only field with fluxes).
   */
  static void calculateFluxes(MeshData md, int[] fields) {
    final int nb = md.numBlocks();
    if (nb == 0) {
      return;
    }
    StateDescriptor pkg = md.block(0).mesh().packages().get(BurgersPackage.NAME);
    final boolean weno5 = BurgersPackage.isWeno5(pkg);
    final int u = fields[0];
    final ArenaLayout layout = md.layout();
    final int inst = layout.dataInstance(u, md.container());
    final int ndim = layout.fluxDirections();
    final int ncomp = layout.numComponents(inst);
    final int cs = layout.componentStride(inst);
    final int js = layout.jStride(inst);
    final int ks = layout.kStride(inst);
    final int[] box = interiorBox(md.block(0).cellBounds());
    final double[][] scratch = scratch(ncomp * cs, ks);
    final double[] ql = scratch[0];
    final double[] qr = scratch[1];
    final int[] dataOffsets = md.dataOffsets();
    final int[] fluxOffsets = md.fluxOffsets();
    final double[] a = md.data();
    final int[] strides = {1, js, ks};
    for (int b = 0; b < nb; b++) {
      final int q = dataOffsets[ArenaLayout.tableSlot(u, b, nb)];
      for (int dir = 1; dir <= ndim; dir++) {
        final int flux = fluxOffsets[ArenaLayout.fluxTableSlot(u, dir, b, nb)];
        final int s = strides[dir - 1];
        reconstruct(a, q, ncomp, cs, js, ks, box, dir, s, weno5, ql, qr);
        solve(a, flux, ncomp, cs, js, ks, box, dir, ql, qr, scratch);
      }
    }
  }

  private static double[][] scratch(int blockValues, int planeLength) {
    double[][] scratch = SCRATCH.get();
    if (scratch[0].length < blockValues || scratch[UPL].length < planeLength) {
      scratch[0] = new double[blockValues];
      scratch[1] = new double[blockValues];
      final double[][] rows = ScratchRows.allocate(OUT + 1 - UPL, planeLength);
      System.arraycopy(rows, 0, scratch, UPL, rows.length);
    }
    return scratch;
  }

  /** Interior bounds {@code is, ie, js, je, ks, ke}. */
  private static int[] interiorBox(IndexShape cells) {
    int[] box = new int[6];
    for (int axis = 0; axis < 3; axis++) {
      box[2 * axis] = cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
      box[2 * axis + 1] = cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    }
    return box;
  }

  /**
   * Face states along {@code dir} of every component: the interior cells plus one layer on each
   * side along {@code dir}, so that every interior face has both states. A cell's {@code ql} goes
   * to the index of the cell above it along {@code dir}, its {@code qr} to its own index. Each call
   * takes a k plane as one row, from its first cell to its last, the ghost columns between its
   * rows included: their states are computed and never read (no interior face uses them), and the
   * long rows are what the vector loops of the reconstructions need.
   */
  private static void reconstruct(double[] a, int q, int ncomp, int cs, int js, int ks,
      int[] box, int dir, int s, boolean weno5, double[] ql, double[] qr) {
    final int i0 = dir == 1 ? box[0] - 1 : box[0];
    final int i1 = dir == 1 ? box[1] + 1 : box[1];
    final int j0 = dir == 2 ? box[2] - 1 : box[2];
    final int j1 = dir == 2 ? box[3] + 1 : box[3];
    final int k0 = dir == 3 ? box[4] - 1 : box[4];
    final int k1 = dir == 3 ? box[5] + 1 : box[5];
    final int count = i1 - i0 + 1;
    final int plane = (j1 - j0) * js + count;
    for (int n = 0; n < ncomp; n++) {
      for (int k = k0; k <= k1; k++) {
        final int cell = n * cs + k * ks + j0 * js + i0;
        if (weno5) {
          Reconstruction.weno5Row(a, q + cell, s, plane, ql, cell + s, qr, cell);
        } else {
          Reconstruction.linearRow(a, q + cell, s, plane, ql, cell + s, qr, cell);
        }
      }
    }
  }

  /**
   * HLL fluxes through the interior faces normal to {@code dir}, written at {@code flux}. Each k
   * plane of faces goes through {@link HllRows} as one row from its first interior face to its
   * last, and is copied to the fluxes whole: the faces of the ghost columns between its rows get
   * fluxes computed from the face states there, which nothing reads (the update, the flux
   * correction and the outputs read interior faces only).
   */
  private static void solve(double[] a, int flux, int ncomp, int cs, int js, int ks, int[] box,
      int dir, double[] ql, double[] qr, double[][] rows) {
    final int i1 = dir == 1 ? box[1] + 1 : box[1];
    final int j1 = dir == 2 ? box[3] + 1 : box[3];
    final int k1 = dir == 3 ? box[5] + 1 : box[5];
    final int normal = (dir - 1) * cs;
    final int count = i1 - box[0] + 1;
    final int plane = (j1 - box[2]) * js + count;
    final double[] upl = rows[UPL];
    final double[] upr = rows[UPR];
    final double[] sl = rows[SL];
    final double[] sr = rows[SR];
    final double[] left = rows[LEFT];
    final double[] right = rows[RIGHT];
    final double[] out = rows[OUT];
    for (int k = box[4]; k <= k1; k++) {
      final int first = k * ks + box[2] * js + box[0];
      HllRows.speeds(ql, qr, normal + first, plane, upl, upr, sl, sr, rows[DEN], rows[INV]);
      for (int n = 0; n < ncomp; n++) {
        final int at = n * cs + first;
        System.arraycopy(ql, at, left, 0, plane);
        System.arraycopy(qr, at, right, 0, plane);
        if (n < BurgersPackage.VELOCITY_COMPONENTS) {
          HllRows.velocity(left, right, upl, upr, sl, sr, rows[INV], out, plane);
        } else {
          HllRows.scalar(left, right, upl, upr, sl, sr, rows[DEN], out, plane);
        }
        System.arraycopy(out, 0, a, flux + at, plane);
      }
    }
  }
}
