package org.metope.examples.sparseadvection;

import java.util.List;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.SparsePool;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code sparse_advection_package} of Parthenon's {@code sparse_advection} example: four
 * sparse fields {@code sparse_0 .. sparse_3} (one pool {@code sparse}), each a disc carried
 * diagonally from one corner of a 2D periodic box towards the opposite one, allocated only on the
 * blocks it reaches.
 *
 * <p>{@code <sparse_advection>} keys (defaults, Parthenon's): {@code restart_test} (false), {@code
 * cfl} (0.45), {@code refine_tol} (0.3), {@code derefine_tol} (0.03), {@code init_size} (0.1, the
 * discs' radius) and {@code speed} (1.0, each disc's speed). Field {@code n} starts at ({@code
 * x0[n]}, {@code y0[n]}) = (0.8, 0.8), (-0.8, 0.8), (-0.8, -0.8), (0.8, -0.8) and moves with
 * velocity {@code speed / sqrt 2} times (-1, -1), (1, -1), (1, 1), (-1, 1). With {@code
 * restart_test} the package adds Parthenon's restart-test fields: dense {@code dense_A}, {@code
 * dense_B} and the pool {@code shape_shift} with ids 1 (one component, {@code scalar}), 3 (a
 * 3-vector {@code vec_x, vec_y, vec_z}) and 4 (a 4-vector), all advected with the velocity of
 * sparse id modulo 4 as Parthenon does (a dense field counts as id 0).
 *
 * <p>There are no history outputs; the application prints the allocation counts after every step
 * ({@link SparseAdvectionDiagnostics}).
 */
public final class SparseAdvectionPackage {
  /** The package label, as in Parthenon. */
  public static final String NAME = "sparse_advection_package";
  /** The deck block of the package's keys. */
  public static final String BLOCK = "sparse_advection";
  /** The sparse pool's base name. */
  public static final String POOL = "sparse";
  /** Number of sparse fields in the pool ({@code NUM_FIELDS}). */
  public static final int NUM_FIELDS = 4;

  private SparseAdvectionPackage() {}

  /** Reads {@code <sparse_advection>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    boolean restartTest = pin.getOrAddBoolean(BLOCK, "restart_test", false);
    pkg.addParam("restart_test", restartTest);
    double cfl = pin.getOrAddReal(BLOCK, "cfl", 0.45);
    if (!(cfl > 0.0)) {
      throw pin.error(BLOCK, "cfl", "a positive Courant number (the time step is cfl times the"
          + " cell crossing time)");
    }
    pkg.addParam("cfl", cfl);
    pkg.addParam("refine_tol", pin.getOrAddReal(BLOCK, "refine_tol", 0.3));
    pkg.addParam("derefine_tol", pin.getOrAddReal(BLOCK, "derefine_tol", 0.03));
    double initSize = pin.getOrAddReal(BLOCK, "init_size", 0.1);
    if (!(initSize > 0.0)) {
      throw pin.error(BLOCK, "init_size", "a positive radius of the initial discs");
    }
    pkg.addParam("init_size", initSize);
    double pos = 0.8;
    // Parthenon holds the discs' centres and velocities in std::arrays, which its outputs skip.
    pkg.addUnwrittenParam("x0", new double[] {pos, -pos, -pos, pos});
    pkg.addUnwrittenParam("y0", new double[] {pos, pos, -pos, -pos});
    double speed = pin.getOrAddReal(BLOCK, "speed", 1.0) / Math.sqrt(2.0);
    if (!(speed > 0.0)) {
      throw pin.error(BLOCK, "speed", "a positive speed of the discs");
    }
    pkg.addUnwrittenParam("vx", new double[] {-speed, speed, speed, -speed});
    pkg.addUnwrittenParam("vy", new double[] {-speed, -speed, speed, speed});
    pkg.addUnwrittenParam("vz", new double[] {0.0, 0.0, 0.0, 0.0});
    Metadata advected = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST, Metadata.SPARSE).build();
    pkg.addSparsePool(new SparsePool(POOL, advected, 0, 1, 2, 3));
    if (restartTest) {
      addRestartTestFields(pkg, advected);
    }
    pkg.setCalculateFluxes(SparseAdvectionFluxes::calculateFluxes);
    pkg.setCheckRefinement(SparseAdvectionPackage::checkRefinement);
    pkg.setEstimateTimestep(SparseAdvectionPackage::estimateTimestep);
    return pkg;
  }

  /** Parthenon's restart-test fields: two dense fields and a pool of three shapes. */
  private static void addRestartTestFields(StateDescriptor pkg, Metadata sparse) {
    Metadata dense = sparse.toBuilder().unset(Metadata.SPARSE).build();
    pkg.addField("dense_A", dense);
    pkg.addField("dense_B", dense);
    SparsePool pool = new SparsePool("shape_shift", sparse);
    pool.add(1, sparse.toBuilder().shape(1).componentLabels("scalar").build());
    pool.add(3, sparse.toBuilder().set(Metadata.VECTOR).shape(3)
        .componentLabels("vec_x", "vec_y", "vec_z").build());
    pool.add(4, sparse.toBuilder().set(Metadata.VECTOR).shape(4).build());
    pkg.addSparsePool(pool);
  }

  /**
   * The velocity index of {@code field}: its sparse id modulo {@link #NUM_FIELDS}, with Java's
   * remainder, which is C++'s; a dense field's id ({@link FieldInfo#NO_SPARSE_ID}, Parthenon's
   * {@code InvalidSparseID}, both the smallest int) gives 0 in both languages.
   */
  static int velocityIndex(FieldInfo field) {
    return field.sparseId() % NUM_FIELDS;
  }

  /**
   * Parthenon's criterion over the allocated fields of the pool, ghosts included: refine a block
   * whose values exceed {@code refine_tol} somewhere and fall below {@code derefine_tol}
   * somewhere, derefine one whose values all stay below {@code derefine_tol} (also one where no
   * field of the pool is allocated: Kokkos' empty min-max has max = lowest real).
   */
  static void checkRefinement(MeshData md, int[] tags) {
    Params params = md.block(0).mesh().packages().get(NAME).params();
    double refineTol = params.getDouble("refine_tol");
    double derefineTol = params.getDouble("derefine_tol");
    double[] a = md.data();
    int[] offsets = md.dataOffsets();
    int nb = md.numBlocks();
    int[] pool = poolFieldIds(md);
    for (int b = 0; b < nb; b++) {
      double min = Double.MAX_VALUE;
      double max = -Double.MAX_VALUE;
      for (int field : pool) {
        int start = offsets[ArenaLayout.tableSlot(field, b, nb)];
        if (start < 0) {
          continue;
        }
        int end = start + md.layout().blockLength(md.layout().dataInstance(field,
            md.container()));
        for (int n = start; n < end; n++) {
          min = a[n] < min ? a[n] : min;
          max = a[n] > max ? a[n] : max;
        }
      }
      if (max > refineTol && min < derefineTol) {
        tags[b] = AmrTag.REFINE_VALUE;
      } else if (max < derefineTol) {
        tags[b] = AmrTag.DEREFINE_VALUE;
      } else {
        tags[b] = AmrTag.SAME_VALUE;
      }
    }
  }

  /** The field ids of the pool {@code sparse}, in sparse-id order. */
  static int[] poolFieldIds(MeshData md) {
    List<FieldInfo> fields = md.state().sparseFields(POOL);
    int[] ids = new int[fields.size()];
    for (int n = 0; n < ids.length; n++) {
      ids[n] = fields.get(n).id();
    }
    return ids;
  }

  /**
   * Parthenon's {@code EstimateTimestepBlock}: {@code cfl} times the smallest cell crossing time
   * over the four velocities, whether the fields are allocated or not. On uniform Cartesian
   * coordinates every cell of a block gives the same quotients, so one per block gives the same
   * bits.
   */
  static double estimateTimestep(MeshData md) {
    Params params = md.block(0).mesh().packages().get(NAME).params();
    double cfl = params.getDouble("cfl");
    double[][] v = {params.get("vx", double[].class), params.get("vy", double[].class),
        params.get("vz", double[].class)};
    double dt = Double.MAX_VALUE;
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian coords = md.block(b).coords();
      double minDt = Double.MAX_VALUE;
      for (int n = 0; n < NUM_FIELDS; n++) {
        for (int axis = 0; axis < 3; axis++) {
          if (v[axis][n] != 0.0) {
            minDt = Math.min(minDt, coords.dx(axis) / Math.abs(v[axis][n]));
          }
        }
      }
      dt = Math.min(dt, cfl * minDt);
    }
    return dt;
  }
}
