package org.metope.kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;

/**
 * Random test setups: a data arena with one fine block and one coarse buffer per boundary (so no
 * two boundaries write the same cell), a buffer arena, and a table whose boundaries have random
 * boxes of the operations asked for. Blocks have two ghost layers, even interiors of 2 to 6 cells
 * per active dimension, 1 or 2 components, and Parthenon-style coordinates.
 */
public final class Scenario {
  public static final int NGHOST = 2;

  /** One boundary as the test knows it, independent of the table's encoding. */
  public record Spec(int op, int ndim, BlockLayout var, IndexBox box, int bufferOffset, BlockLayout fine,
      int[] origin, double[] fineXmin, double[] fineDx, double[] coarseXmin, double[] coarseDx,
      double defaultValue, double threshold) {}

  public final List<Spec> specs;
  public final BoundaryTable table;
  public final double[] data;
  public final double[] buffers;

  private Scenario(List<Spec> specs, BoundaryTable table, double[] data, double[] buffers) {
    this.specs = specs;
    this.table = table;
    this.data = data;
    this.buffers = buffers;
  }

  /** A scenario with one boundary per entry of {@code ops}, all with {@code ndim} dimensions. */
  public static Scenario random(long seed, int ndim, int... ops) {
    Random random = new Random(seed);
    List<Spec> specs = new ArrayList<>();
    int dataCursor = random.nextInt(5);
    int bufferCursor = random.nextInt(5);
    for (int op : ops) {
      Spec spec = randomSpec(random, op, ndim, dataCursor, bufferCursor);
      specs.add(spec);
      dataCursor = Math.max(spec.var().end(), spec.fine().end()) + random.nextInt(4);
      bufferCursor = spec.bufferOffset() + spec.var().ncomp() * spec.box().cells()
          + random.nextInt(3);
    }
    BoundaryTableBuilder builder = new BoundaryTableBuilder();
    for (Spec s : specs) {
      int b = builder.add(s.op(), s.ndim(), s.var(), s.box(), s.bufferOffset());
      if (s.op() != BoundaryOp.COPY) {
        builder.fine(b, s.fine(), s.origin()[0], s.origin()[1], s.origin()[2]);
        builder.coordinates(b, s.fineXmin(), s.fineDx(), s.coarseXmin(), s.coarseDx());
      }
      builder.defaultValue(b, s.defaultValue()).sparseThreshold(b, s.threshold());
    }
    double[] data = randomArray(random, dataCursor);
    double[] buffers = randomArray(random, bufferCursor);
    return new Scenario(specs, builder.build(), data, buffers);
  }

  public static double[] randomArray(Random random, int length) {
    double[] a = new double[length];
    for (int i = 0; i < length; i++) {
      a[i] = 2.0 * random.nextDouble() - 1.0;
    }
    return a;
  }

  private static Spec randomSpec(Random random, int op, int ndim, int dataAt, int bufferAt) {
    int ncomp = 1 + random.nextInt(2);
    int[] nx = new int[3];
    int[] fineExtent = new int[3];
    int[] coarseExtent = new int[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      nx[d] = active ? 2 * (1 + random.nextInt(3)) : 1;
      fineExtent[d] = active ? nx[d] + 2 * NGHOST : 1;
      coarseExtent[d] = active ? nx[d] / 2 + 2 * NGHOST : 1;
    }
    BlockLayout fine = new BlockLayout(dataAt, ncomp, fineExtent[2], fineExtent[1], fineExtent[0]);
    BlockLayout coarse = new BlockLayout(fine.end() + random.nextInt(3), ncomp, coarseExtent[2],
        coarseExtent[1], coarseExtent[0]);
    int[] lo = new int[3];
    int[] hi = new int[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      if (!active) {
        lo[d] = 0;
        hi[d] = 0;
      } else if (op == BoundaryOp.COPY) {
        lo[d] = 0;
        hi[d] = fineExtent[d] - 1;
      } else if (op == BoundaryOp.PROLONGATE) {
        lo[d] = 1;
        hi[d] = nx[d] / 2 + NGHOST;
      } else {
        lo[d] = NGHOST;
        hi[d] = NGHOST + nx[d] / 2 - 1;
      }
    }
    int[] s = new int[3];
    int[] e = new int[3];
    for (int d = 0; d < 3; d++) {
      s[d] = lo[d] + random.nextInt(hi[d] - lo[d] + 1);
      e[d] = s[d] + random.nextInt(hi[d] - s[d] + 1);
    }
    IndexBox box = new IndexBox(s[0], e[0], s[1], e[1], s[2], e[2]);
    BlockLayout var = op == BoundaryOp.COPY ? fine : coarse;
    int[] origin = new int[3];
    double[] fineXmin = new double[3];
    double[] fineDx = new double[3];
    double[] coarseXmin = new double[3];
    double[] coarseDx = new double[3];
    for (int d = 0; d < 3; d++) {
      boolean active = d < ndim;
      origin[d] = active ? NGHOST - 2 * NGHOST : 0;
      double blockXmin = random.nextDouble() - 0.5;
      double dx = 0.05 + 0.1 * random.nextDouble();
      fineDx[d] = dx;
      fineXmin[d] = active ? blockXmin - NGHOST * dx : blockXmin;
      coarseXmin[d] = active ? fineXmin[d] + NGHOST * dx * (1 - 2) : fineXmin[d];
      coarseDx[d] = active ? 2 * dx : dx;
    }
    double threshold = random.nextInt(3) == 0 ? 2.0 : 0.5 * random.nextDouble();
    return new Spec(op, ndim, var, box, bufferAt, fine, origin, fineXmin, fineDx, coarseXmin,
        coarseDx, random.nextDouble(), threshold);
  }

  /**
   * A PHYSICAL_BOUNDARY launch over {@code components} components of one {@code n}^3 block with
   * 2 ghosts (component c at {@code c * n^3}): reflection on inner x1 (the normal component, 0,
   * negated), outflow on outer x2 and inner x3. Copies and sign changes only, so a device must
   * give the host's bits.
   */
  public static StageLaunch physicalBoundary(int n, int components) {
    int width = StageLaunch.Kind.PHYSICAL_BOUNDARY.width;
    int[] t = new int[components * width];
    for (int c = 0; c < components; c++) {
      int e = c * width;
      int[] component = {c * n * n * n, n, n, n, 2};
      System.arraycopy(component, 0, t, e, component.length);
      int[][] faces = {{0, c == 0 ? StageLaunch.BC_REFLECT_NEGATED : StageLaunch.BC_REFLECT, 0,
          0, 2 * 2 - 1}, {3, StageLaunch.BC_OUTFLOW, 1, n - 2, n - 3},
          {4, StageLaunch.BC_OUTFLOW, 2, 0, 2}};
      for (int[] f : faces) {
        System.arraycopy(f, 1, t, e + StageLaunch.P_FACES + f[0] * StageLaunch.P_SLOT, 4);
      }
    }
    return new StageLaunch(StageLaunch.Kind.PHYSICAL_BOUNDARY, t, new double[0], components);
  }

  /**
   * A package's cell body and per-block minimum, as a package would write them: a kinetic energy
   * {@code 0.5 d |u|^2} into component 4 and two blocks' smallest {@code 1 / (|u_x| / dx1 + |u_y|
   * / dx2 + |u_z| / dx3)} (spacings 1/8, 1/4, 1/16 and 1/2 each), over the interior {@code
   * 2..n-3} of one {@code n}^3 block whose 5 components (u, d, the energy) start at 0. The
   * bodies are package-private static methods, as a device launcher needs them.
   */
  public static StageLaunch[] packageBodies(int n) {
    int cs = n * n * n;
    int width = DevicePack.width(5);
    int[] t = new int[2 * width];
    for (int e = 0; e < 2; e++) {
      int at = e * width;
      int[] box = {2, n - 3, 2, n - 3, 2, n - 3, n, n * n, 0, 5};
      System.arraycopy(box, 0, t, at, box.length);
      for (int v = 0; v < 5; v++) {
        t[at + DevicePack.VIEWS + v] = v * cs;
        t[at + DevicePack.VIEWS + 5 + v] = -1;
      }
    }
    return new StageLaunch[] {
        StageLaunch.cells(Scenario::energy, width, 0, t, new double[0], 1),
        StageLaunch.reduction(StageLaunch.Kind.CELLS_MINIMUM, Scenario::step, width, 3, t,
            new double[] {0.125, 0.25, 0.0625, 0.5, 0.5, 0.5}, 2)};
  }

  static void energy(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    double u1 = DevicePack.get(a, t, at, 0, k, j, i);
    double u2 = DevicePack.get(a, t, at, 1, k, j, i);
    double u3 = DevicePack.get(a, t, at, 2, k, j, i);
    DevicePack.set(a, t, at, 4, k, j, i,
        0.5 * DevicePack.get(a, t, at, 3, k, j, i) * (u1 * u1 + u2 * u2 + u3 * u3));
  }

  static double step(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    double rate = 0.0;
    for (int d = 0; d < 3; d++) {
      rate += Math.abs(DevicePack.get(a, t, at, d, k, j, i)) / DevicePack.real(r, rat, d);
    }
    return 1.0 / rate;
  }
}
