package org.metope.bvals.conditions;

import java.util.List;
import java.util.function.IntPredicate;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.Task;
import org.metope.tasking.TaskStatus;

/**
 * Applies the physical boundary conditions (Parthenon's {@code
 * ApplyBoundaryConditionsOnCoarseOrFine}): for every block face on a non-periodic mesh boundary, in
 * face order (inner x1, outer x1, inner x2, ...), the condition named in the deck fills the whole
 * ghost slab of that face, the other axes' ghosts included, so later faces see the corners filled
 * by earlier ones. {@code outflow} and {@code reflecting} are {@link BoundaryFunctions}' built-in
 * conditions; any other name is a function the application registered for that face in the {@link
 * BoundaryFunctions} given to {@link #use}. The registry's package conditions of a face run after
 * the deck's condition there (evolving fields only).
 *
 * <p>The conditions of the STATIC fields are applied by an instance of their own (made with {@code
 * forStaticFields}), only when their ghosts are filled (set-up and remesh): each STATIC field gets
 * the condition it declares ({@code Metadata.boundaryCondition()}), or the deck's, the built-in
 * ones limited to that field. A user function that serves several STATIC fields on a face is
 * called once there.
 *
 * <p>Periodic faces and faces between blocks are filled by communication and skipped here.
 */
public final class BoundaryConditions {
  /** The faces in Parthenon's order; a copy, since {@code values()} allocates on every call. */
  private static final BoundaryFace[] FACES = BoundaryFace.values();
  private final boolean forStaticFields;
  private BoundaryFunctions functions = new BoundaryFunctions();
  /** The ghost-filled STATIC cell fields, their own condition (or null) and a filter for each. */
  private int[] staticIds = new int[0];
  private String[] staticNames = new String[0];
  private IntPredicate[] onlyStatic = new IntPredicate[0];

  /** Conditions for the evolving fields ({@code forStaticFields = false}) or the STATIC ones. */
  public BoundaryConditions(boolean forStaticFields) {
    this.forStaticFields = forStaticFields;
  }

  /** Uses the application's registry of user conditions (before {@code setup}). */
  public void use(BoundaryFunctions registry) {
    this.functions = registry;
  }

  /** The registry in use. */
  public BoundaryFunctions functions() {
    return functions;
  }

  /** Finds the STATIC fields of {@code state} and their conditions (at every set-up). */
  public void prepare(ResolvedState state) {
    List<FieldInfo> fields = state.fieldsWith(MetadataFlag.STATIC, MetadataFlag.FILL_GHOST,
        MetadataFlag.CELL);
    staticIds = new int[fields.size()];
    staticNames = new String[fields.size()];
    onlyStatic = new IntPredicate[fields.size()];
    for (int s = 0; s < fields.size(); s++) {
      final int id = fields.get(s).id();
      staticIds[s] = id;
      staticNames[s] = fields.get(s).metadata().boundaryCondition();
      onlyStatic[s] = field -> field == id;
    }
  }

  /**
   * Checks, before the run, that every active face of {@code config} names a built-in condition
   * or a function registered for that face ({@code ix1_bc = user} needs one), so that a missing
   * one is a deck error at set-up and not a failed task later; for the STATIC instance, the same
   * for every condition a STATIC field declares (a programming error, since code declares it).
   *
   * @param pin the deck the names came from, for the error's file and line; null in tests
   * @throws InputError naming the face's key when a function is missing
   */
  public void requireRegistered(MeshConfiguration config, ParameterInput pin) {
    for (BoundaryFace face : FACES) {
      if (face.axis() >= config.ndim() || config.boundaryFlag(face) != BoundaryFlag.USER) {
        continue;
      }
      if (!forStaticFields) {
        requireRegistered(face, config.boundaryName(face), pin);
        continue;
      }
      for (int s = 0; s < staticIds.length; s++) {
        if (staticNames[s] != null && !known(face, staticNames[s])) {
          throw new IllegalStateException("a STATIC field declares a boundary condition the"
              + " application registers for no such face: condition=" + staticNames[s] + " face="
              + face.deckKey() + " registered=" + functions.names(face));
        }
      }
    }
  }

  private boolean known(BoundaryFace face, String name) {
    return BoundaryFunctions.BUILT_IN.contains(name) || functions.find(face, name) != null;
  }

  private void requireRegistered(BoundaryFace face, String name, ParameterInput pin) {
    if (known(face, name)) {
      return;
    }
    String registered = functions.names(face).isEmpty() ? ""
        : ", " + String.join(", ", functions.names(face));
    String expected = "a boundary condition with a function for this face: one of "
        + String.join(", ", BoundaryFunctions.BUILT_IN) + registered
        + " (the application registers no function " + name + " for " + face.deckKey() + ")";
    if (pin == null) {
      throw new IllegalStateException(face.deckKey() + "=" + name + ": " + expected);
    }
    throw pin.error("parthenon/mesh", face.deckKey(), expected);
  }

  /**
   * The exchange's task that applies the conditions to {@code md}'s cells or coarse buffers,
   * made once per partition and layout: nothing for a partition without a physical face; else on
   * a backend that is not resident, {@link #apply(MeshData, boolean)}; on a device-resident one,
   * one launch on the device when every physical face of the mesh is built in
   * ({@link BoundaryConditionLaunch}), and {@link #apply(MeshData, boolean, KernelBackend)} (the
   * host copy acquired) when some face runs a user function, which only the host can call.
   */
  public Task task(MeshData md, boolean coarse, KernelBackend kernels) {
    if (md.numBlocks() == 0 || !hasPhysicalFace(md)) {
      return () -> TaskStatus.COMPLETE;
    }
    if (!kernels.resident()) {
      return () -> apply(md, coarse);
    }
    if (forStaticFields || functions.hasPackageConditions()
        || !BoundaryConditionLaunch.builtInOnly(md.block(0).mesh())) {
      return () -> apply(md, coarse, kernels);
    }
    StageLaunch launch = BoundaryConditionLaunch.build(md, coarse);
    return () -> {
      kernels.stage(launch, md.data(), 0.0, 0.0);
      return TaskStatus.COMPLETE;
    };
  }

  /**
   * {@link #apply(MeshData, boolean)} on the host copy of {@code md}'s arena: a device-resident
   * {@code kernels} backend brings it to the host first (for writing), and only when some block
   * of {@code md} has a physical face; on other backends the same as the plain call.
   */
  public TaskStatus apply(MeshData md, boolean coarse, KernelBackend kernels) {
    if (!kernels.resident()) {
      return apply(md, coarse);
    }
    if (!hasPhysicalFace(md)) {
      return TaskStatus.COMPLETE;
    }
    kernels.acquireHost(md.data(), true);
    try {
      return apply(md, coarse);
    } finally {
      kernels.releaseHost(md.data());
    }
  }

  /** Whether some block of {@code md} has a face this object fills. */
  private static boolean hasPhysicalFace(MeshData md) {
    int ndim = md.block(0).mesh().ndim();
    for (int b = 0; b < md.numBlocks(); b++) {
      if (hasPhysicalFace(md.block(b), ndim)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The same for one block. A method per block, not a loop body: the caller runs a few times per
   * cycle and stays interpreted on one CPU, while this method is compiled within a few cycles.
   */
  private static boolean hasPhysicalFace(MeshBlock block, int ndim) {
    for (int f = 0; f < FACES.length; f++) {
      if (FACES[f].axis() < ndim && block.boundaryFlag(FACES[f]) == BoundaryFlag.USER) {
        return true;
      }
    }
    return false;
  }

  /** Applies every physical boundary of every block of {@code md} to cells or coarse buffers. */
  public TaskStatus apply(MeshData md, boolean coarse) {
    Mesh mesh = md.block(0).mesh();
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      for (BoundaryFace face : FACES) {
        if (face.axis() >= mesh.ndim() || block.boundaryFlag(face) != BoundaryFlag.USER) {
          continue;
        }
        String deckName = mesh.config().boundaryName(face);
        if (forStaticFields) {
          applyStatic(md, b, face, coarse, deckName);
        } else {
          applyNamed(md, b, face, coarse, deckName, null);
          List<BoundaryFunction> more = functions.packageConditions(face);
          for (int f = 0; f < more.size(); f++) {
            more.get(f).apply(md, b, face, coarse);
          }
        }
      }
    }
    return TaskStatus.COMPLETE;
  }

  /** Each STATIC field's own condition, or the deck's, on one face of block {@code b}. */
  private void applyStatic(MeshData md, int b, BoundaryFace face, boolean coarse,
      String deckName) {
    for (int s = 0; s < staticIds.length; s++) {
      String name = staticNames[s] != null ? staticNames[s] : deckName;
      if (!BoundaryFunctions.BUILT_IN.contains(name) && calledBefore(s, name, deckName)) {
        continue;
      }
      applyNamed(md, b, face, coarse, name, onlyStatic[s]);
    }
  }

  /** Whether a STATIC field before {@code s} already had user condition {@code name} applied. */
  private boolean calledBefore(int s, String name, String deckName) {
    for (int earlier = 0; earlier < s; earlier++) {
      String other = staticNames[earlier] != null ? staticNames[earlier] : deckName;
      if (other.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Condition {@code name} on one face of block {@code b}; the built-in ones on the fields {@code
   * fields} accepts (the evolving ones when null), a user function on what it fills.
   */
  private void applyNamed(MeshData md, int b, BoundaryFace face, boolean coarse, String name,
      IntPredicate fields) {
    switch (name) {
      case "outflow" -> BoundaryFunctions.outflow(md, b, face, coarse, fields);
      case "reflecting" -> BoundaryFunctions.reflect(md, b, face, coarse, fields);
      default -> {
        BoundaryFunction f = functions.find(face, name);
        if (f == null) {
          throw new IllegalStateException("no boundary function registered: name=" + name
              + " face=" + face);
        }
        f.apply(md, b, face, coarse);
      }
    }
  }
}
