package org.metope.bvals.conditions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.metope.kernels.body.StageKernels;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The physical boundary conditions of a run: the built-in {@link #outflow} and {@link #reflect}
 * (Parthenon's generic conditions), public so that a user condition can apply them to the fields
 * it does not handle itself, and the registry of user conditions an application fills, per face
 * and deck name (Parthenon's {@code ApplicationInput::RegisterBoundaryCondition}).
 *
 * <pre>{@code
 * BoundaryFunctions bcs = new BoundaryFunctions();
 * int rho = ...;  // the field id of the field the inflow sets
 * IntPredicate others = field -> field != rho;
 * bcs.register(BoundaryFace.INNER_X1, "inflow", (md, b, face, coarse) -> {
 *   setInflow(md, b, rho, coarse);
 *   BoundaryFunctions.outflow(md, b, face, coarse, others);
 * });
 * }</pre>
 *
 * <p>A deck names a condition per face ({@code ix1_bc = inflow}); {@code user} is the name {@link
 * #register(BoundaryFace, BoundaryFunction)} registers under, as Parthenon's unnamed user
 * condition. Periodic faces are filled by communication, so there is no periodic function. A face
 * whose deck name is neither built in nor registered for that face is refused at set-up ({@link
 * BoundaryConditions#requireRegistered}).
 */
public final class BoundaryFunctions {
  /** The name {@link #register(BoundaryFace, BoundaryFunction)} uses, as Parthenon's. */
  public static final String USER = "user";
  /** Deck names with a built-in meaning; they cannot be registered. */
  public static final List<String> BUILT_IN = List.of("periodic", "outflow", "reflecting");
  /** The faces in Parthenon's order; a copy, since {@code values()} allocates on every call. */
  private static final BoundaryFace[] FACES = BoundaryFace.values();

  /** Registered functions by face ordinal, then deck name (in registration order). */
  private final List<Map<String, BoundaryFunction>> byFace = new ArrayList<>();
  /** Package conditions by face ordinal, in registration order. */
  private final List<List<BoundaryFunction>> packageConditions = new ArrayList<>();

  /** An empty registry: only the built-in conditions. */
  public BoundaryFunctions() {
    for (int f = 0; f < FACES.length; f++) {
      byFace.add(new LinkedHashMap<>());
      packageConditions.add(new ArrayList<>());
    }
  }

  /**
   * Adds a package condition on {@code face}: it runs on every physical face {@code face} after
   * the condition the deck names there, on cells and on coarse buffers alike (Parthenon's {@code
   * StateDescriptor::UserBoundaryFunctions}). Parthenon's {@code poisson_gmg} sets its fields'
   * ghosts this way whatever the deck says.
   */
  public BoundaryFunctions addPackageCondition(BoundaryFace face, BoundaryFunction function) {
    if (function == null) {
      throw new IllegalArgumentException("package boundary function is null: face=" + face);
    }
    packageConditions.get(face.ordinal()).add(function);
    return this;
  }

  /** {@link #addPackageCondition} on every face. */
  public BoundaryFunctions addPackageConditionEveryFace(BoundaryFunction function) {
    for (BoundaryFace face : FACES) {
      addPackageCondition(face, function);
    }
    return this;
  }

  /** The package conditions of {@code face}, in registration order. */
  public List<BoundaryFunction> packageConditions(BoundaryFace face) {
    return packageConditions.get(face.ordinal());
  }

  /** Whether some face has a package condition. */
  public boolean hasPackageConditions() {
    for (List<BoundaryFunction> functions : packageConditions) {
      if (!functions.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Registers {@code function} for faces {@code face} whose deck name is {@code name}.
   *
   * @throws IllegalArgumentException for a built-in name, a blank one or one registered twice
   */
  public BoundaryFunctions register(BoundaryFace face, String name, BoundaryFunction function) {
    if (name == null || name.isBlank() || BUILT_IN.contains(name)) {
      throw new IllegalArgumentException("a user boundary condition needs a name other than "
          + BUILT_IN + ": name=" + name + " face=" + face);
    }
    if (function == null) {
      throw new IllegalArgumentException("boundary function is null: name=" + name + " face="
          + face);
    }
    Map<String, BoundaryFunction> functions = byFace.get(face.ordinal());
    if (functions.containsKey(name)) {
      throw new IllegalArgumentException("boundary condition already registered: name=" + name
          + " face=" + face);
    }
    functions.put(name, function);
    return this;
  }

  /** Registers {@code function} as the {@code user} condition of {@code face}. */
  public BoundaryFunctions register(BoundaryFace face, BoundaryFunction function) {
    return register(face, USER, function);
  }

  /** Registers {@code function} under {@code name} on every face. */
  public BoundaryFunctions registerEveryFace(String name, BoundaryFunction function) {
    for (BoundaryFace face : FACES) {
      register(face, name, function);
    }
    return this;
  }

  /** The function registered for {@code face} under {@code name}, or null. */
  public BoundaryFunction find(BoundaryFace face, String name) {
    return byFace.get(face.ordinal()).get(name);
  }

  /** The names registered for {@code face}, in registration order. */
  public List<String> names(BoundaryFace face) {
    return List.copyOf(byFace.get(face.ordinal()).keySet());
  }

  /**
   * Every registered name, on any face, in face then registration order: what {@code
   * MeshConfiguration.fromInput(pin, names)} accepts besides the built-in names.
   */
  public List<String> names() {
    List<String> out = new ArrayList<>();
    for (Map<String, BoundaryFunction> functions : byFace) {
      for (String name : functions.keySet()) {
        if (!out.contains(name)) {
          out.add(name);
        }
      }
    }
    return List.copyOf(out);
  }

  // ---- built-in conditions -----------------------------------------------------------------

  /**
   * Outflow on every evolving (not {@code STATIC}) field: each ghost takes the nearest interior
   * value along the normal.
   */
  public static void outflow(MeshData md, int b, BoundaryFace face, boolean coarse) {
    generic(md, b, face, coarse, false, false, null);
  }

  /**
   * Outflow on the fields whose id {@code fields} accepts ({@code STATIC} ones included); null
   * means every evolving field.
   */
  public static void outflow(MeshData md, int b, BoundaryFace face, boolean coarse,
      IntPredicate fields) {
    generic(md, b, face, coarse, false, false, fields);
  }

  /**
   * Reflection on every evolving (not {@code STATIC}) field: each ghost mirrors the interior
   * across the face, the normal component of a {@code VECTOR} field changing sign.
   */
  public static void reflect(MeshData md, int b, BoundaryFace face, boolean coarse) {
    generic(md, b, face, coarse, true, false, null);
  }

  /**
   * Reflection on the fields whose id {@code fields} accepts ({@code STATIC} ones included); null
   * means every evolving field.
   */
  public static void reflect(MeshData md, int b, BoundaryFace face, boolean coarse,
      IntPredicate fields) {
    generic(md, b, face, coarse, true, false, fields);
  }

  /**
   * Parthenon's {@code FixedFace} condition with face value 0 on the fields whose id {@code
   * fields} accepts (null: every evolving field): each ghost is minus its mirror image across the
   * face, so that the linear reconstruction on the face is 0 on every level. Parthenon writes
   * {@code 2 * 0 - mirror}; the two differ only in the sign of a zero.
   */
  public static void fixedFace(MeshData md, int b, BoundaryFace face, boolean coarse,
      IntPredicate fields) {
    generic(md, b, face, coarse, true, true, fields);
  }

  /**
   * Outflow or reflection (negated: fixed face) of every allocated ghost-filled field of block {@code b} that
   * {@code fields} accepts (every evolving one when null), over the face's whole ghost slab.
   * STATIC fields are left alone unless asked for, since their ghosts are filled only at set-up
   * and remesh, with their own conditions. A face, edge or node field's elements follow
   * Parthenon's {@code GenericBC} per element ({@link #elementShift}). Each component's slab is {@link
   * StageKernels#ghostSlab}, the body a device-resident backend runs too ({@link
   * BoundaryConditionLaunch}).
   */
  private static void generic(MeshData md, int b, BoundaryFace face, boolean coarse,
      boolean reflect, boolean negate, IntPredicate fields) {
    MeshBlock block = md.block(b);
    ArenaLayout layout = md.layout();
    double[] data = md.data();
    int axis = face.axis();
    int nghost = block.mesh().nghost();
    for (FieldInfo field : md.state().fields()) {
      int inst = instance(md, field, b, coarse, fields);
      if (inst < 0) {
        continue;
      }
      IndexShape shape = block.bounds(field.metadata().isFine(), coarse);
      int first = firstGhost(shape, face, nghost);
      int source = sourceLayer(shape, face, reflect);
      int offset = layout.offset(inst, md.blockIndex(b));
      int ni = layout.ni(inst);
      int nj = layout.nj(inst);
      int nk = layout.nk(inst);
      int ncomp = layout.numComponents(inst);
      List<TopologicalElement> elements = field.metadata().elements();
      for (int p = 0; p < elements.size() * ncomp; p++) {
        TopologicalElement el = elements.get(p / ncomp);
        int shift = elementShift(el, face);
        double sign = negate || reflect && isNormalComponent(field, p, ncomp, axis) ? -1.0
            : 1.0;
        StageKernels.ghostSlab(data, offset + p * ni * nj * nk, ni, nj, nk, axis, first + shift,
            nghost, source + (reflect ? 2 * shift : shift), reflect ? 1 : 0, sign);
      }
    }
  }

  /**
   * How far element {@code el}'s layers beyond {@code face} lie from the cells': one on an outer
   * face along whose axis the element sits on cell boundaries (its interior ends one index later,
   * Parthenon's bounds for that element), else none. The boundary layer itself, a face or edge
   * the block shares with no one, is not a ghost and keeps its value.
   */
  static int elementShift(TopologicalElement el, BoundaryFace face) {
    if (!face.isOuter()) {
      return 0;
    }
    return switch (face.axis()) {
      case 0 -> el.offsetI();
      case 1 -> el.offsetJ();
      default -> el.offsetK();
    };
  }

  /**
   * Whether plane {@code p} (element {@code p / ncomp}, component {@code p % ncomp}) of a {@code
   * VECTOR} field points along {@code axis}, so that reflection negates it: the component of a
   * cell or node field, the element of a face or edge field (Parthenon's {@code
   * vector_component}: {@code F1} and {@code E1} point along x1).
   */
  static boolean isNormalComponent(FieldInfo field, int p, int ncomp, int axis) {
    if (!field.metadata().isSet(MetadataFlag.VECTOR)) {
      return false;
    }
    return field.metadata().elements().size() == 3 ? p / ncomp == axis : p % ncomp == axis;
  }

  /**
   * The arena instance of {@code field} that a built-in condition fills on block {@code b} (its
   * coarse buffer when {@code coarse}), or -1 when it fills none: the field is not an allocated
   * ghost-filled field on the mesh that {@code fields} accepts (null: an evolving one).
   */
  static int instance(MeshData md, FieldInfo field, int b, boolean coarse, IntPredicate fields) {
    if (!field.metadata().isSet(MetadataFlag.FILL_GHOST) || !field.metadata().isMeshTied()
        || !md.isAllocated(field.id(), b)
        || (fields == null ? field.metadata().isSet(MetadataFlag.STATIC)
            : !fields.test(field.id()))) {
      return -1;
    }
    ArenaLayout layout = md.layout();
    return coarse ? layout.coarseInstance(field.id())
        : layout.dataInstance(field.id(), md.container());
  }

  /**
   * The first ghost layer beyond {@code face} along its axis in index space {@code shape} (the
   * slab has nghost layers).
   */
  static int firstGhost(IndexShape shape, BoundaryFace face, int nghost) {
    return face.isOuter() ? interiorEdge(shape, face) + 1 : interiorEdge(shape, face) - nghost;
  }

  /**
   * The layer a ghost copies: the interior edge layer for outflow; for reflection twice the edge
   * plus or minus one, from which {@link StageKernels#ghostSlab} subtracts the ghost's layer.
   */
  static int sourceLayer(IndexShape shape, BoundaryFace face, boolean reflect) {
    int ref = interiorEdge(shape, face);
    return reflect ? 2 * ref + (face.isOuter() ? 1 : -1) : ref;
  }

  private static int interiorEdge(IndexShape shape, BoundaryFace face) {
    return face.isOuter()
        ? shape.end(face.axis(), IndexDomain.INTERIOR, TopologicalElement.CC)
        : shape.start(face.axis(), IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
