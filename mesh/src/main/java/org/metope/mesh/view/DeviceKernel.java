package org.metope.mesh.view;

import org.metope.kernels.body.CellBody;
import org.metope.kernels.body.CellMeasure;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * A package's kernel, written once as a static {@link CellBody} (or {@link CellMeasure}) over
 * {@link DevicePack} views and declared here once with its shape and its pack: {@link #cells} over
 * an element's index box, {@link #faces} along a direction (writing the pack's fluxes), or a
 * {@link #reduction} of each block's values over a box, its smallest ({@link #minimum}: a time
 * step), its largest (a refinement measure) or its sum (a history), on the host {@link #reduce}
 * over a partition's blocks or {@link #block} for one block. {@link #launch} makes a
 * partition's CELLS launch from the pack (offsets, strides and boxes resolved here; the partition
 * keeps it as it keeps a pack, until an allocation change), which the hooks that take launches
 * hand to a device-resident backend; {@link #run} runs the same body on the host, in a loop copied
 * per body class so the JIT inlines it. Package code sees no offset, slot or stride either way.
 */
public final class DeviceKernel {
  /** Real {@code n} of block {@code b} of a partition: what a body reads with {@code real}. */
  @FunctionalInterface
  public interface BlockReals {
    /** Real {@code n} for partition block {@code b} of {@code md}. */
    double real(MeshData md, int b, int n);
  }

  private static final ClassValue<ReductionLoop> REDUCTION_LOOPS = new ClassValue<>() {
    @Override
    protected ReductionLoop computeValue(Class<?> bodyClass) {
      return LoopCopies.of(ReductionLoopTemplate.class, ReductionLoop.class);
    }
  };
  private static final ClassValue<BodyLoop> LOOPS = new ClassValue<>() {
    @Override
    protected BodyLoop computeValue(Class<?> bodyClass) {
      return LoopCopies.of(BodyLoopTemplate.class, BodyLoop.class);
    }
  };

  private final CellBody body;
  private final CellMeasure measure;
  /** A reduction's kind (CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM), CELLS for a body. */
  private final StageLaunch.Kind kind;
  /** The pack's descriptor, or null until {@link #names} are resolved on a partition's fields. */
  private final PackDescriptor pack;
  private final String[] names;
  /** The descriptor of {@link #names} and the fields it was resolved on. */
  private volatile Resolved resolved;
  private final TopologicalElement element;
  private final IndexDomain domain;
  /** 1..3 for a face kernel along that direction, 0 for a cell kernel. */
  private final int direction;
  private final int numReals;
  private final BlockReals reals;

  private record Resolved(ResolvedState state, PackDescriptor pack) {}

  private DeviceKernel(CellBody body, StageLaunch.Kind kind, CellMeasure measure, Object pack,
      TopologicalElement element, IndexDomain domain, int direction, int numReals,
      BlockReals reals) {
    this.body = body;
    this.kind = kind;
    this.measure = measure;
    this.pack = pack instanceof PackDescriptor d ? d : null;
    this.names = pack instanceof String[] n ? n.clone() : null;
    this.element = element;
    this.domain = domain;
    this.direction = direction;
    this.numReals = numReals;
    this.reals = reals;
  }

  /**
   * {@code body} on every index of {@code element}'s {@code domain} box of every block, over
   * {@code pack}, with {@code numReals} reals per block from {@code reals}.
   */
  public static DeviceKernel cells(CellBody body, PackDescriptor pack,
      TopologicalElement element, IndexDomain domain, int numReals, BlockReals reals) {
    return new DeviceKernel(body, StageLaunch.Kind.CELLS, null, pack, element, domain, 0, numReals, reals);
  }

  /**
   * {@link #cells} over the pack of {@code fields}, by name ({@link PackDescriptor#of}), resolved
   * on the first partition of each set of fields it meets: a kernel that can live in a static
   * final, made before the packages are resolved.
   */
  public static DeviceKernel cells(CellBody body, String[] fields, TopologicalElement element,
      IndexDomain domain, int numReals, BlockReals reals) {
    return new DeviceKernel(body, StageLaunch.Kind.CELLS, null, fields, element, domain, 0, numReals, reals);
  }

  /**
   * Each block's values of {@code measure} over {@code element}'s {@code domain} box folded by
   * reduction {@code kind} ({@code CELLS_MINIMUM}, {@code CELLS_MAXIMUM} or {@code CELLS_SUM}),
   * indices in order, from the reduction's identity ({@link StageLaunch#identity}); otherwise as
   * {@link #cells}.
   */
  public static DeviceKernel reduction(StageLaunch.Kind kind, CellMeasure measure,
      PackDescriptor pack, TopologicalElement element, IndexDomain domain, int numReals,
      BlockReals reals) {
    return new DeviceKernel(null, requireReduction(kind), measure, pack, element, domain, 0,
        numReals, reals);
  }

  /** {@link #reduction} over the pack of {@code fields}, by name, as the named {@link #cells}. */
  public static DeviceKernel reduction(StageLaunch.Kind kind, CellMeasure measure,
      String[] fields, TopologicalElement element, IndexDomain domain, int numReals,
      BlockReals reals) {
    return new DeviceKernel(null, requireReduction(kind), measure, fields, element, domain, 0,
        numReals, reals);
  }

  /** The {@link #reduction} that keeps each block's smallest value (a time step). */
  public static DeviceKernel minimum(CellMeasure measure, String[] fields,
      TopologicalElement element, IndexDomain domain, int numReals, BlockReals reals) {
    return reduction(StageLaunch.Kind.CELLS_MINIMUM, measure, fields, element, domain, numReals,
        reals);
  }

  private static StageLaunch.Kind requireReduction(StageLaunch.Kind kind) {
    if (!kind.isReduction()) {
      throw new IllegalArgumentException("kind=" + kind
          + " is not a reduction: expected CELLS_MINIMUM, CELLS_MAXIMUM or CELLS_SUM");
    }
    return kind;
  }

  /**
   * {@code body} on every face along {@code direction} of the interior cells (one more index
   * along it than cells) of every block, over {@code pack} and its fluxes along {@code direction}
   * ({@code pack} made {@link PackDescriptor#withFluxes}), {@link DevicePack#below} the cell below
   * the face.
   */
  public static DeviceKernel faces(CellBody body, PackDescriptor pack, int direction,
      int numReals, BlockReals reals) {
    requireDirection(direction);
    return new DeviceKernel(body, StageLaunch.Kind.CELLS, null, pack, TopologicalElement.CC, IndexDomain.INTERIOR,
        direction, numReals, reals);
  }

  /**
   * {@link #faces} over the pack of {@code fields} and their fluxes, by name, resolved as the
   * named {@link #cells} is: a kernel that can live in a static final.
   */
  public static DeviceKernel faces(CellBody body, String[] fields, int direction, int numReals,
      BlockReals reals) {
    requireDirection(direction);
    return new DeviceKernel(body, StageLaunch.Kind.CELLS, null, fields, TopologicalElement.CC, IndexDomain.INTERIOR,
        direction, numReals, reals);
  }

  private static void requireDirection(int direction) {
    if (direction < 1 || direction > 3) {
      throw new IllegalArgumentException("direction=" + direction + " must be 1..3");
    }
  }

  /** Runs a {@link #cells} or {@link #faces} kernel on the host copy of {@code md}'s arena. */
  public void run(MeshData md) {
    if (md.numBlocks() > 0) {
      LOOPS.get(body.getClass()).run(launch(md), md.data());
    }
  }

  /**
   * Runs a {@link #reduction} on the host copy of {@code md}'s arena: the blocks' values folded
   * in block order by the same reduction, from its identity (which is the value for no block).
   * Which rank or partition a block is in changes a sum's bits: a package that wants the same
   * bits on any number of ranks folds {@link #block} values in global block order (a history
   * output's block function does).
   */
  public double reduce(MeshData md) {
    double folded = StageLaunch.identity(kind);
    if (md.numBlocks() > 0) {
      StageLaunch launch = launch(md);
      REDUCTION_LOOPS.get(measure.getClass()).run(launch, md.data());
      for (int e = 0; e < launch.count; e++) {
        folded = StageLaunch.fold(kind, folded, launch.results[e]);
      }
    }
    return folded;
  }

  /** Runs a {@link #reduction} on partition block {@code b} of {@code md}'s host copy alone. */
  public double block(MeshData md, int b) {
    return REDUCTION_LOOPS.get(measure.getClass()).entry(launch(md), b, md.data());
  }

  /** The kernel's launch on {@code md}, made on first use and kept by the partition. */
  public StageLaunch launch(MeshData md) {
    VariablePack p = descriptor(md).pack(md);
    if (md.keptView(this) instanceof Kept kept && kept.pack == p) {
      return kept.launch;
    }
    StageLaunch launch = make(md, p);
    md.keepView(this, new Kept(p, launch));
    return launch;
  }

  private PackDescriptor descriptor(MeshData md) {
    if (pack != null) {
      return pack;
    }
    Resolved r = resolved;
    if (r == null || r.state() != md.state()) {
      PackDescriptor d = PackDescriptor.of(md.state(), names);
      r = new Resolved(md.state(), direction == 0 ? d : d.withFluxes());
      resolved = r;
    }
    return r.pack();
  }

  private record Kept(VariablePack pack, StageLaunch launch) {}

  private StageLaunch make(MeshData md, VariablePack p) {
    final int nb = md.numBlocks();
    final int nv = p.numVars();
    final int width = DevicePack.width(nv);
    final int[] t = new int[nb * width];
    final double[] r = new double[nb * numReals];
    if (nb > 0) {
      final IndexBox box = box(md.block(0).cellBounds());
      for (int b = 0; b < nb; b++) {
        final int at = b * width;
        t[at + DevicePack.IS] = box.i().s();
        t[at + DevicePack.IE] = box.i().e();
        t[at + DevicePack.JB] = box.j().s();
        t[at + DevicePack.JE] = box.j().e();
        t[at + DevicePack.KB] = box.k().s();
        t[at + DevicePack.KE] = box.k().e();
        t[at + DevicePack.JSTRIDE] = p.stride(2);
        t[at + DevicePack.KSTRIDE] = p.stride(3);
        t[at + DevicePack.SHIFT] = direction == 0 ? 0 : p.stride(direction);
        t[at + DevicePack.NVARS] = nv;
        for (int v = 0; v < nv; v++) {
          t[at + DevicePack.VIEWS + v] = p.index(element, b, v, 0, 0, 0);
          t[at + DevicePack.VIEWS + nv + v] =
              direction == 0 ? -1 : p.fluxIndex(b, direction, v, 0, 0, 0);
        }
        for (int n = 0; n < numReals; n++) {
          r[b * numReals + n] = reals.real(md, b, n);
        }
      }
    }
    return body != null ? StageLaunch.cells(body, width, numReals, t, r, nb)
        : StageLaunch.reduction(kind, measure, width, numReals, t, r, nb);
  }

  private IndexBox box(IndexShape shape) {
    IndexBox box = IndexBox.of(shape, domain, element);
    return direction == 0 ? box : box.expand(direction, 0, 1);
  }
}
