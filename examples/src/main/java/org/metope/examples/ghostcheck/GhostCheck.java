package org.metope.examples.ghostcheck;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryCommunication;
import org.metope.comm.ReduceOp;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code ghost_check} test problem: fills every block's interior with a linear function of
 * position, fills the ghosts by one boundary exchange, and counts every ghost cell that differs
 * from what it must hold. Prolongation and restriction are exact for linear data, so on any mesh
 * the answer is known without running the exchange's own code:
 *
 * <ul>
 *   <li>across a periodic boundary, the value at the wrapped position;
 *   <li>beyond an {@code outflow} boundary, the value at the nearest interior cell centre;
 *   <li>beyond a {@code reflecting} boundary, the value at the mirrored position, with the normal
 *       component of the vector field negated;
 *   <li>anywhere else, the function at the ghost cell's centre.
 * </ul>
 *
 * Linear data are not periodic, so a deck must keep fine/coarse interfaces away from periodic
 * wraps and give zero slopes along outflow axes of multilevel meshes (minmod limits slopes next to
 * such boundaries); the decks in {@code inputs/ghost_check_*.in} say how they do.
 *
 * <p>Deck section {@code <ghost_check>}: {@code ncomp} (components of the scalar field {@code q},
 * default 2), {@code slope} (three reals, the gradient), {@code value} (the value at the origin),
 * {@code elements} (default false: also check face, edge and node fields, {@link
 * ElementGhostCheck}, on single-level periodic meshes). A vector field {@code vel} with three
 * components is always checked too.
 */
public final class GhostCheck {
  /** The deck block of the problem's keys. */
  public static final String BLOCK = "ghost_check";
  private final double[] slope;
  private final double value;
  private final int ncomp;
  /** The check of face, edge and node fields, or null without them. */
  private final ElementGhostCheck elements;

  private GhostCheck(double[] slope, double value, int ncomp, boolean elements) {
    this.slope = slope;
    this.value = value;
    this.ncomp = ncomp;
    this.elements = elements ? new ElementGhostCheck(slope, value) : null;
  }

  /**
   * The package: a scalar field with {@code ncomp} components and a 3-vector, and with {@code
   * elements} a face, an edge and a node field.
   */
  static StateDescriptor makePackage(int ncomp, boolean elements) {
    StateDescriptor pkg = new StateDescriptor("ghost_check");
    pkg.addField("q", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST).shape(ncomp).build());
    pkg.addField("vel", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.VECTOR).shape(3).build());
    if (elements) {
      ElementGhostCheck.declare(pkg);
    }
    return pkg;
  }

  /**
   * Reads {@code <ghost_check>} and declares the package: a scalar field with {@code ncomp}
   * components and a 3-vector; the function's slope and value are its parameters.
   */
  static StateDescriptor initialize(ParameterInput pin) {
    pin.declareKnown("parthenon/job", "problem_id");
    double[] slope = pin.getOrAddRealList(BLOCK, "slope", new double[] {1.0, 2.0, 3.0});
    if (slope.length != 3) {
      throw pin.error(BLOCK, "slope", "three reals (the gradient along x1, x2, x3)");
    }
    int ncomp = pin.getOrAddInteger(BLOCK, "ncomp", 2);
    if (ncomp < 1) {
      throw pin.error(BLOCK, "ncomp", "a positive integer");
    }
    boolean elements = pin.getOrAddBoolean(BLOCK, "elements", false);
    StateDescriptor pkg = makePackage(ncomp, elements);
    pkg.addParam("slope", slope);
    pkg.addParam("value", pin.getOrAddReal(BLOCK, "value", 0.5));
    pkg.addParam("ncomp", ncomp);
    pkg.addParam("elements", elements);
    return pkg;
  }

  /** The check the package {@link #initialize} made describes. */
  static GhostCheck of(Packages packages) {
    Params params = packages.get(BLOCK).params();
    return new GhostCheck(params.get("slope", double[].class), params.getDouble("value"),
        params.getInt("ncomp"), params.getBoolean("elements"));
  }

  /**
   * Runs the check on this rank's part of the mesh the deck describes, filling ghosts with {@code
   * boundaries}, and returns the number of wrong ghost cells over all ranks (every rank gets the
   * same count). Prints one line on rank 0.
   */
  public static long run(ParameterInput pin, Communicator world,
      BoundaryCommunication boundaries, PrintStream out) {
    Packages packages = new Packages();
    packages.add(initialize(pin));
    GhostCheck check = of(packages);
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    mesh.initializeFields(packages, List.of("base"));
    boundaries.setup(mesh);
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        check.fillInterior(md, b);
      }
    }
    boundaries.fillGhosts(mesh, "base");
    return check.countAndReport(mesh, out);
  }

  /**
   * The number of wrong ghost cells of {@code mesh} over all ranks (the same on every rank), and
   * on rank 0 one line saying it.
   */
  long countAndReport(Mesh mesh, PrintStream out) {
    long local = 0;
    for (MeshData md : mesh.meshData("base")) {
      local += countWrongGhosts(md);
      for (int b = 0; elements != null && b < md.numBlocks(); b++) {
        local += elements.countWrong(md, b);
      }
    }
    Communicator world = mesh.communicator();
    long wrong = world.allreduce(local, ReduceOp.SUM);
    if (world.rank() == 0) {
      out.println("ghost_check: " + mesh.totalBlocks() + " blocks on " + world.size()
          + " ranks, wrong ghost cells = " + wrong);
    }
    return wrong;
  }

  private double f(int component, double x1, double x2, double x3) {
    return value + component + slope[0] * x1 + slope[1] * x2 + slope[2] * x3;
  }

  /** The problem generator: the linear function on the interior of block {@code b}. */
  void fillInterior(MeshData md, int b) {
    if (elements != null) {
      elements.fill(md, b);
    }
    double[] data = md.data();
    MeshBlock block = md.block(b);
    IndexShape cb = block.cellBounds();
    UniformCartesian x = block.coords();
    for (int field = 0; field < 2; field++) {
      int nc = field == 0 ? ncomp : 3;
      for (int c = 0; c < nc; c++) {
        for (int k = cb.start(2, INTERIOR, CC); k <= cb.end(2, INTERIOR, CC); k++) {
          for (int j = cb.start(1, INTERIOR, CC); j <= cb.end(1, INTERIOR, CC); j++) {
            for (int i = cb.start(0, INTERIOR, CC); i <= cb.end(0, INTERIOR, CC); i++) {
              data[md.index(field, b, c, k, j, i)] =
                  f(c + 10 * field, x.xc(0, i), x.xc(1, j), x.xc(2, k));
            }
          }
        }
      }
    }
  }

  private long countWrongGhosts(MeshData md) {
    long wrong = 0;
    double[] data = md.data();
    double[] p = new double[3];
    double[] dx = new double[3];
    int[] flip = new int[3];
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      IndexShape cb = block.cellBounds();
      UniformCartesian x = block.coords();
      for (int axis = 0; axis < 3; axis++) {
        dx[axis] = x.dx(axis);
      }
      for (int k = 0; k < cb.entireNcells(2); k++) {
        for (int j = 0; j < cb.entireNcells(1); j++) {
          for (int i = 0; i < cb.entireNcells(0); i++) {
            if (isInterior(cb, i, j, k)) {
              continue;
            }
            p[0] = x.xc(0, i);
            p[1] = x.xc(1, j);
            p[2] = x.xc(2, k);
            wrong += checkCell(md, data, b, block, p, dx, flip, i, j, k);
          }
        }
      }
    }
    return wrong;
  }

  /**
   * The wrong values of ghost cell {@code (k, j, i)} of block {@code b}, centred at {@code p}
   * (moved here to the interior point whose value it should hold; {@code flip} is scratch).
   */
  private int checkCell(MeshData md, double[] data, int b, MeshBlock block, double[] p,
      double[] dx, int[] flip, int i, int j, int k) {
    Mesh mesh = block.mesh();
    RegionSize domain = mesh.meshSize();
    Arrays.fill(flip, 0);
    for (int axis = 0; axis < mesh.ndim(); axis++) {
      double lo = domain.xmin(axis);
      double hi = domain.xmax(axis);
      if (p[axis] > lo && p[axis] < hi) {
        continue;
      }
      BoundaryFace face = BoundaryFace.of(axis, p[axis] > hi);
      String bc = mesh.config().boundaryName(face);
      double edge = p[axis] > hi ? hi : lo;
      double inward = p[axis] > hi ? -1 : 1;
      if (BoundaryFlag.ofName(bc) == BoundaryFlag.PERIODIC) {
        p[axis] += (hi - lo) * inward;
      } else if ("reflecting".equals(bc)) {
        p[axis] = 2 * edge - p[axis];
        flip[axis] = 1;
      } else {
        p[axis] = edge + inward * 0.5 * dx[axis];
      }
    }
    int wrong = 0;
    for (int field = 0; field < 2; field++) {
      int nc = field == 0 ? ncomp : 3;
      for (int c = 0; c < nc; c++) {
        double expected = f(c + 10 * field, p[0], p[1], p[2]);
        if (field == 1 && flip[c] == 1) {
          expected = -expected;
        }
        double got = data[md.index(field, b, c, k, j, i)];
        if (Math.abs(got - expected) > 1e-12 * (1 + Math.abs(expected))) {
          wrong++;
        }
      }
    }
    return wrong;
  }

  private static boolean isInterior(IndexShape cb, int i, int j, int k) {
    return i >= cb.start(0, INTERIOR, CC) && i <= cb.end(0, INTERIOR, CC)
        && j >= cb.start(1, INTERIOR, CC) && j <= cb.end(1, INTERIOR, CC)
        && k >= cb.start(2, INTERIOR, CC) && k <= cb.end(2, INTERIOR, CC);
  }

  private static final org.metope.mesh.geometry.IndexDomain INTERIOR =
      org.metope.mesh.geometry.IndexDomain.INTERIOR;
  private static final org.metope.mesh.geometry.TopologicalElement CC =
      org.metope.mesh.geometry.TopologicalElement.CC;
}
