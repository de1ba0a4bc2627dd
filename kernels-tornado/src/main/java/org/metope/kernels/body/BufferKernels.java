package org.metope.kernels.body;

import org.metope.kernels.table.BoundaryIndex;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;

import static org.metope.kernels.table.BoundaryTable.BUFFER_OFFSET;
import static org.metope.kernels.table.BoundaryTable.DEFAULT_VALUE;
import static org.metope.kernels.table.BoundaryTable.IE;
import static org.metope.kernels.table.BoundaryTable.IS;
import static org.metope.kernels.table.BoundaryTable.JE;
import static org.metope.kernels.table.BoundaryTable.JS;
import static org.metope.kernels.table.BoundaryTable.KE;
import static org.metope.kernels.table.BoundaryTable.KS;
import static org.metope.kernels.table.BoundaryTable.NCOMP;
import static org.metope.kernels.table.BoundaryTable.OP;
import static org.metope.kernels.table.BoundaryTable.OWNED_0;
import static org.metope.kernels.table.BoundaryTable.OWNED_ALL;
import static org.metope.kernels.table.BoundaryTable.PLANES_PER_ELEMENT;
import static org.metope.kernels.table.BoundaryTable.RECEIVE_COPY;
import static org.metope.kernels.table.BoundaryTable.RECEIVE_DEFAULT;
import static org.metope.kernels.table.BoundaryTable.SPARSE_THRESHOLD;
import static org.metope.kernels.table.BoundaryTable.VAR_NI;
import static org.metope.kernels.table.BoundaryTable.VAR_NJ;

/**
 * Kernel bodies that move boundary data between the data arena and the buffer arena: load (send
 * side) and unload (receive side). Static methods over flat arrays and the columns of a
 * {@link org.metope.kernels.table.BoundaryTable}, so that the JVM backend and TornadoVM run the
 * same code.
 *
 * <p>Two granularities: {@code *Boundary} methods walk every row of one boundary with the table
 * columns hoisted (what the JVM backend's fused loop calls; load and unload share one walk, whose
 * box rows go through {@link #copyBox}), and {@link
 * RowKernels} decodes one row from a flat row number (what a device thread calls, through {@link
 * #copyRow}). Both fill and test rows with {@link #fillRow} and {@link #anyAtLeast}.
 */
public final class BufferKernels {
  private BufferKernels() {}

  /**
   * Loads boundary {@code b} of a table of {@code n} boundaries into its buffer slice, copying the
   * box (COPY, PROLONGATE) or restricting the box's fine children (RESTRICT, FLUX_*).
   *
   * @return 1 when some loaded |value| reached the boundary's sparse threshold, else 0
   */
  public static int loadBoundary(int b, int n, int[] ints, double[] reals, double[] data,
      double[] buffers) {
    if (BoundaryOp.isRestriction(ints[OP * n + b])) {
      return RefinementKernels.restrictBoundary(b, n, ints, reals, data, buffers, true);
    }
    return moveBox(b, n, ints, reals, data, buffers, LOAD);
  }

  /**
   * Unloads boundary {@code b}: copies its buffer slice into the box, fills the box with the
   * default value, or leaves it, as {@code receiveMode[b]} says.
   */
  public static void unloadBoundary(int b, int n, int[] ints, double[] reals, int[] receiveMode,
      double[] data, double[] buffers) {
    final int mode = receiveMode[b];
    if (mode == RECEIVE_COPY || mode == RECEIVE_DEFAULT) {
      moveBox(b, n, ints, reals, data, buffers, mode);
    }
  }

  /** {@link #moveBox}'s mode for a load; the unload modes are {@link BoundaryTable}'s. */
  private static final int LOAD = -1;

  /**
   * The one walk of load and unload over boundary {@code b}'s box, component by component: {@code
   * LOAD} copies the box into the buffer slice (and tests the sparse threshold), {@code
   * RECEIVE_COPY} copies the slice into the box, {@code RECEIVE_DEFAULT} fills the box with the
   * default value. The slice is ordered like the box.
   *
   * @return for a load, 1 when some loaded |value| reached the sparse threshold; else 0
   */
  private static int moveBox(int b, int n, int[] ints, double[] reals, double[] data,
      double[] buffers, int mode) {
    final int ni = ints[VAR_NI * n + b];
    final int plane = ints[VAR_NJ * n + b] * ni;
    final int ncomp = ints[NCOMP * n + b];
    final int js = ints[JS * n + b];
    final int ks = ints[KS * n + b];
    final int count = ints[IE * n + b] - ints[IS * n + b] + 1;
    final int rows = ints[JE * n + b] - js + 1;
    final int planes = ints[KE * n + b] - ks + 1;
    final int cells = planes * rows * count;
    int slice = ints[BUFFER_OFFSET * n + b];
    int nonzero = 0;
    final boolean load = mode == LOAD;
    for (int c = 0; c < ncomp; c++) {
      final int box = BoundaryIndex.varRow(b, n, ints, c, ks, js);
      final int owned = mode == RECEIVE_COPY ? ownedMask(b, n, ints, c) : OWNED_ALL;
      if (load || mode == RECEIVE_COPY && owned == OWNED_ALL) {
        // box -> slice on a load, slice -> box on a receive; one call for both, so that C2
        // compiles one copy of the box walk into this method, not two
        copyBox(load ? data : buffers, load ? box : slice, load ? ni : count,
            load ? plane : rows * count, load ? buffers : data, load ? slice : box,
            load ? count : ni, load ? rows * count : plane, planes, rows, count);
        if (load && nonzero == 0) {
          nonzero = anyAtLeast(buffers, slice, cells, reals[SPARSE_THRESHOLD * n + b]);
        }
      } else if (mode == RECEIVE_COPY) {
        for (int p = 0; p < planes; p++) {
          for (int r = 0; r < rows; r++) {
            copyOwnedRow(buffers, slice + (p * rows + r) * count, data, box + p * plane + r * ni,
                count, owned, boxClass(r, rows), boxClass(p, planes));
          }
        }
      } else {
        final double value = reals[DEFAULT_VALUE * n + b];
        for (int p = 0; p < planes; p++) {
          for (int r = 0; r < rows; r++) {
            fillRow(data, box + p * plane + r * ni, count, value);
          }
        }
      }
      slice += cells;
    }
    return nonzero;
  }

  /**
   * Copies one component of a box, {@code planes x rows} rows of {@code count} doubles: row (p, r)
   * goes from {@code fromPos + p * fromPlane + r * fromRow} to {@code toPos + p * toPlane + r *
   * toRow}. Any order gives the same result, so the longer of the two row directions runs inside:
   * an x3-edge (2 x 2 x 16 cells) becomes 2 runs of 32 rows instead of 16 runs of 2.
   */
  public static void copyBox(double[] from, int fromPos, int fromRow, int fromPlane, double[] to,
      int toPos, int toRow, int toPlane, int planes, int rows, int count) {
    // the directions are chosen first and copyRows is called from one place: C2 compiles one copy
    // of its loops here, not one per direction
    final boolean planesInside = planes > rows;
    final int outer = planesInside ? rows : planes;
    final int inner = planesInside ? planes : rows;
    final int fromOuter = planesInside ? fromRow : fromPlane;
    final int fromInner = planesInside ? fromPlane : fromRow;
    final int toOuter = planesInside ? toRow : toPlane;
    final int toInner = planesInside ? toPlane : toRow;
    for (int o = 0; o < outer; o++) {
      copyRows(from, fromPos + o * fromOuter, fromInner, to, toPos + o * toOuter, toInner, inner,
          count);
    }
  }

  /**
   * Copies {@code rows} rows of {@code count} doubles, row r from {@code fromPos + r * fromStride}
   * to {@code toPos + r * toStride}. This is the JVM's inner loop, tuned for it: rows of two cells
   * (slabs two ghost layers wide, the commonest row of a 3D exchange) are two assignments, about a
   * fifth cheaper than a two-iteration loop; longer rows use the {@code System.arraycopy}
   * intrinsic, about twice as fast as a scalar loop over 16 cells, which C2 does not vectorise at
   * that length. A device thread copies the same row with {@link #copyRow}; a copy is a copy, so
   * both give the same bits.
   */
  public static void copyRows(double[] from, int fromPos, int fromStride, double[] to, int toPos,
      int toStride, int rows, int count) {
    if (count == 2) {
      for (int r = 0; r < rows; r++) {
        final int f = fromPos + r * fromStride;
        final int t = toPos + r * toStride;
        to[t] = from[f];
        to[t + 1] = from[f + 1];
      }
    } else {
      for (int r = 0; r < rows; r++) {
        System.arraycopy(from, fromPos + r * fromStride, to, toPos + r * toStride, count);
      }
    }
  }

  /**
   * The OWNED mask of component {@code c} of boundary {@code b}: that of the topological element
   * the component belongs to ({@link org.metope.kernels.table.BoundaryTable}, "Shared elements").
   */
  public static int ownedMask(int b, int n, int[] ints, int c) {
    return ints[(OWNED_0 + c / ints[PLANES_PER_ELEMENT * n + b]) * n + b];
  }

  /** The class of index {@code at} of a box range of {@code count}: -1 first, +1 last, else 0. */
  public static int boxClass(int at, int count) {
    return (at == count - 1 ? 1 : 0) - (at == 0 ? 1 : 0);
  }

  /**
   * Copies the cells of one box row (classes {@code cj}, {@code ck}) that {@code owned} marks,
   * leaving the others: a shared face, edge or corner keeps its owner's value.
   */
  public static void copyOwnedRow(double[] from, int fromPos, double[] to, int toPos, int count,
      int owned, int cj, int ck) {
    for (int m = 0; m < count; m++) {
      if ((owned >> BoundaryTable.ownedBit(boxClass(m, count), cj, ck) & 1) == 1) {
        to[toPos + m] = from[fromPos + m];
      }
    }
  }

  /** Copies {@code count} doubles; the inner loop of load and unload. */
  public static void copyRow(double[] from, int fromPos, double[] to, int toPos, int count) {
    for (int m = 0; m < count; m++) {
      to[toPos + m] = from[fromPos + m];
    }
  }

  /** Writes {@code value} into {@code count} doubles. */
  public static void fillRow(double[] to, int toPos, int count, double value) {
    for (int m = 0; m < count; m++) {
      to[toPos + m] = value;
    }
  }

  /**
   * Returns 1 when some |a[pos + m]| is at least {@code threshold} (Parthenon's test for sending a
   * sparse field's data instead of a null message), else 0.
   */
  public static int anyAtLeast(double[] a, int pos, int count, double threshold) {
    int found = 0;
    for (int m = 0; m < count && found == 0; m++) {
      if (Math.abs(a[pos + m]) >= threshold) {
        found = 1;
      }
    }
    return found;
  }
}
