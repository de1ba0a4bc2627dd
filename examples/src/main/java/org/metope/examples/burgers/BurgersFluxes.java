package org.metope.examples.burgers;

import org.metope.mesh.field.ArenaLayout;
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
 * cell above it), so face states cost 2 x {@code U} per thread instead of 6 x {@code U} per block.
 * Scratch is allocated on a thread's first call and reused; nothing is allocated per step.
 */
final class BurgersFluxes {
  /** Per thread: ql, qr (block-sized), sl, sr (a row). Grown when a bigger block comes. */
  private static final ThreadLocal<double[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new double[][] {new double[0], new double[0], new double[0],
          new double[0]});

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
    final double[][] scratch = scratch(ncomp * cs, layout.ni(inst));
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
        solve(a, flux, ncomp, cs, js, ks, box, dir, ql, qr, scratch[2], scratch[3]);
      }
    }
  }

  private static double[][] scratch(int blockValues, int rowLength) {
    double[][] scratch = SCRATCH.get();
    if (scratch[0].length < blockValues || scratch[2].length < rowLength) {
      scratch[0] = new double[blockValues];
      scratch[1] = new double[blockValues];
      scratch[2] = new double[rowLength];
      scratch[3] = new double[rowLength];
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

  /** HLL fluxes through the interior faces normal to {@code dir}, written at {@code flux}. */
  private static void solve(double[] a, int flux, int ncomp, int cs, int js, int ks, int[] box,
      int dir, double[] ql, double[] qr, double[] sl, double[] sr) {
    final int i1 = dir == 1 ? box[1] + 1 : box[1];
    final int j1 = dir == 2 ? box[3] + 1 : box[3];
    final int k1 = dir == 3 ? box[5] + 1 : box[5];
    final int normal = (dir - 1) * cs;
    final int count = i1 - box[0] + 1;
    for (int k = box[4]; k <= k1; k++) {
      for (int j = box[2]; j <= j1; j++) {
        final int face = k * ks + j * js + box[0];
        velocityRow(a, flux + face, ql, qr, face, normal, cs, count, sl, sr);
        for (int n = BurgersPackage.VELOCITY_COMPONENTS; n < ncomp; n++) {
          scalarRow(a, flux + n * cs + face, ql, qr, face, n * cs, normal, count, sl, sr);
        }
      }
    }
  }

  /**
   * Velocity fluxes of one row of faces; leaves the wave speeds of each face in {@code sl[m]},
   * {@code sr[m]} for the scalars.
   */
  private static void velocityRow(double[] a, int out, double[] ql, double[] qr, int face,
      int normal, int cs, int count, double[] sl, double[] sr) {
    final int cy = cs;
    final int cz = 2 * cs;
    for (int m = 0; m < count; m++) {
      final int f = face + m;
      final double upl = ql[normal + f];
      final double upr = qr[normal + f];
      final double uxl = ql[f];
      final double uxr = qr[f];
      final double uyl = ql[cy + f];
      final double uyr = qr[cy + f];
      final double uzl = ql[cz + f];
      final double uzr = qr[cz + f];
      final double lo = upr < upl ? upr : upl;
      final double hi = upl < upr ? upr : upl;
      final double l = 0.0 < lo ? 0.0 : lo;
      final double r = hi < 0.0 ? 0.0 : hi;
      final double inverse = 1.0 / (r - l + (l * r == 0.0 ? 1.0 : 0.0));
      a[out + m] = 0.5 * (r * uxl * upl - l * uxr * upr + l * r * (uxr - uxl)) * inverse;
      a[out + cy + m] = 0.5 * (r * uyl * upl - l * uyr * upr + l * r * (uyr - uyl)) * inverse;
      a[out + cz + m] = 0.5 * (r * uzl * upl - l * uzr * upr + l * r * (uzr - uzl)) * inverse;
      sl[m] = l;
      sr[m] = r;
    }
  }

  /** Fluxes of one scalar through one row of faces, with the speeds {@link #velocityRow} left. */
  private static void scalarRow(double[] a, int out, double[] ql, double[] qr, int face,
      int component, int normal, int count, double[] sl, double[] sr) {
    for (int m = 0; m < count; m++) {
      final int f = face + m;
      final double upl = ql[normal + f];
      final double upr = qr[normal + f];
      final double left = ql[component + f];
      final double right = qr[component + f];
      final double l = sl[m];
      final double r = sr[m];
      a[out + m] = (r * upl * left - l * upr * right + l * r * (right - left))
          / (r - l + (l * r == 0.0 ? 1.0 : 0.0));
    }
  }
}
