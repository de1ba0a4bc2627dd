package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * What a field is (Parthenon's {@code Metadata}): an immutable value of flags, a component shape
 * with optional component labels, and, for sparse fields, allocation thresholds and the value an
 * unallocated block reads as.
 *
 * <pre>{@code
 * Metadata scalar = Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST);
 * Metadata velocity = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.VECTOR)
 *     .shape(3).componentLabels("vx", "vy", "vz").build();
 * }</pre>
 *
 * <p>Each exclusive group of {@link MetadataFlag} takes its default when none of its flags is
 * given (topology {@code NONE}, role {@code PROVIDES}, {@code DERIVED}); two flags of one group,
 * a shape that does not fit the flags, or labels that do not match the component count are
 * programming errors reported with an {@link IllegalArgumentException} naming the offending values.
 *
 * <p>Two metadata are {@link #compatible compatible} when their flags and shapes are equal, as
 * Parthenon compares them; labels and thresholds do not change how a field is stored. {@link
 * #equals} compares every property.
 */
public final class Metadata {
  /** Parthenon's default {@code <parthenon/sparse> alloc_threshold}. */
  public static final double DEFAULT_ALLOCATION_THRESHOLD = 1.0e-12;
  /** Parthenon's default {@code <parthenon/sparse> dealloc_threshold}. */
  public static final double DEFAULT_DEALLOCATION_THRESHOLD = 1.0e-14;

  public static final MetadataFlag NONE = MetadataFlag.NONE;
  public static final MetadataFlag CELL = MetadataFlag.CELL;
  public static final MetadataFlag FACE = MetadataFlag.FACE;
  public static final MetadataFlag EDGE = MetadataFlag.EDGE;
  public static final MetadataFlag NODE = MetadataFlag.NODE;
  public static final MetadataFlag PRIVATE = MetadataFlag.PRIVATE;
  public static final MetadataFlag PROVIDES = MetadataFlag.PROVIDES;
  public static final MetadataFlag REQUIRES = MetadataFlag.REQUIRES;
  public static final MetadataFlag OVERRIDABLE = MetadataFlag.OVERRIDABLE;
  public static final MetadataFlag VECTOR = MetadataFlag.VECTOR;
  public static final MetadataFlag TENSOR = MetadataFlag.TENSOR;
  public static final MetadataFlag INDEPENDENT = MetadataFlag.INDEPENDENT;
  public static final MetadataFlag DERIVED = MetadataFlag.DERIVED;
  public static final MetadataFlag ADVECTED = MetadataFlag.ADVECTED;
  public static final MetadataFlag CONSERVED = MetadataFlag.CONSERVED;
  public static final MetadataFlag INTENSIVE = MetadataFlag.INTENSIVE;
  public static final MetadataFlag RESTART = MetadataFlag.RESTART;
  public static final MetadataFlag SPARSE = MetadataFlag.SPARSE;
  public static final MetadataFlag ONE_COPY = MetadataFlag.ONE_COPY;
  public static final MetadataFlag FILL_GHOST = MetadataFlag.FILL_GHOST;
  public static final MetadataFlag WITH_FLUXES = MetadataFlag.WITH_FLUXES;
  public static final MetadataFlag FINE = MetadataFlag.FINE;
  public static final MetadataFlag FORCE_REMESH_COMM = MetadataFlag.FORCE_REMESH_COMM;
  public static final MetadataFlag STATIC = MetadataFlag.STATIC;
  public static final MetadataFlag REAL = MetadataFlag.REAL;
  public static final MetadataFlag INTEGER = MetadataFlag.INTEGER;

  private static final List<MetadataFlag> TOPOLOGY = List.of(NONE, CELL, FACE, EDGE, NODE);
  private static final List<MetadataFlag> ROLE = List.of(PRIVATE, PROVIDES, REQUIRES, OVERRIDABLE);
  private static final List<MetadataFlag> EVOLUTION = List.of(INDEPENDENT, DERIVED);
  private static final List<MetadataFlag> TENSOR_SHAPE = List.of(VECTOR, TENSOR);
  private static final List<MetadataFlag> DATA_TYPE = List.of(REAL, INTEGER);
  private static final List<TopologicalElement> CELL_ELEMENTS = List.of(TopologicalElement.CC);
  private static final List<TopologicalElement> FACE_ELEMENTS =
      List.of(TopologicalElement.F1, TopologicalElement.F2, TopologicalElement.F3);
  private static final List<TopologicalElement> EDGE_ELEMENTS =
      List.of(TopologicalElement.E1, TopologicalElement.E2, TopologicalElement.E3);
  private static final List<TopologicalElement> NODE_ELEMENTS = List.of(TopologicalElement.NN);

  private final EnumSet<MetadataFlag> flags;
  private final int[] shape;
  private final List<String> componentLabels;
  private final double allocationThreshold;
  private final double deallocationThreshold;
  private final double defaultValue;
  private final boolean ownThresholds;
  private final String boundaryCondition;
  private final RefinementOps refinementOps;
  /** The topology flag, found once: plan builds ask for it at every boundary. */
  private final MetadataFlag topology;

  private Metadata(Builder b) {
    this.flags = withDefaults(b.flags);
    this.shape = b.shape.clone();
    this.componentLabels = List.copyOf(b.labels);
    this.allocationThreshold = b.allocationThreshold;
    this.deallocationThreshold = b.deallocationThreshold;
    this.defaultValue = b.defaultValue;
    this.ownThresholds = b.thresholdsSet;
    this.boundaryCondition = b.boundaryCondition;
    this.refinementOps = b.refinementOps;
    this.topology = first(TOPOLOGY); // one of them at least (withDefaults); validate: one only
    validate(b.thresholdsSet);
  }

  /** Scalar metadata from flags (one component, no labels). */
  public static Metadata of(MetadataFlag... flags) {
    return builder(flags).build();
  }

  /** A builder starting from {@code flags}; add a shape, labels or sparse thresholds. */
  public static Builder builder(MetadataFlag... flags) {
    return new Builder(flags);
  }

  /** A builder holding this metadata's properties, to derive a variant. */
  public Builder toBuilder() {
    Builder b = new Builder(flags.toArray(new MetadataFlag[0]));
    b.shape = shape.clone();
    b.labels = componentLabels;
    b.allocationThreshold = allocationThreshold;
    b.deallocationThreshold = deallocationThreshold;
    b.defaultValue = defaultValue;
    b.thresholdsSet = ownThresholds;
    b.boundaryCondition = boundaryCondition;
    b.refinementOps = refinementOps;
    return b;
  }

  private static EnumSet<MetadataFlag> withDefaults(EnumSet<MetadataFlag> given) {
    EnumSet<MetadataFlag> f = EnumSet.copyOf(given);
    if (Collections.disjoint(f, TOPOLOGY)) {
      f.add(NONE);
    }
    if (Collections.disjoint(f, ROLE)) {
      f.add(PROVIDES);
    }
    if (Collections.disjoint(f, EVOLUTION)) {
      f.add(DERIVED);
    }
    return f;
  }

  private void validate(boolean thresholdsSet) {
    exclusive(TOPOLOGY, "topology");
    exclusive(ROLE, "role");
    exclusive(EVOLUTION, "evolution");
    exclusive(TENSOR_SHAPE, "tensor shape");
    exclusive(DATA_TYPE, "data type");
    if (flags.contains(INTEGER) && isMeshTied()) {
      throw misuse("INTEGER values exist for swarm variables only, not on the mesh");
    }
    for (int d : shape) {
      if (d < 1) {
        throw misuse("every shape dimension must be at least 1");
      }
    }
    if (isMeshTied() && shape.length > 3) {
      throw misuse("fields on the mesh have at most 3 shape dimensions");
    }
    if (flags.contains(VECTOR) && shape.length != 1) {
      throw misuse("VECTOR needs a shape of one dimension");
    }
    if (flags.contains(TENSOR) && shape.length != 2) {
      throw misuse("TENSOR needs a shape of two dimensions");
    }
    if (!componentLabels.isEmpty() && componentLabels.size() != numComponents()) {
      throw misuse("component labels must be absent or one per component (labels="
          + componentLabels.size() + ", components=" + numComponents() + ")");
    }
    if (flags.contains(WITH_FLUXES) && !flags.contains(CELL) && !flags.contains(FACE)) {
      throw misuse("WITH_FLUXES needs CELL or FACE topology");
    }
    if (flags.contains(FINE) && topology() != CELL) {
      throw misuse("FINE needs CELL topology");
    }
    if (thresholdsSet && !flags.contains(SPARSE)) {
      throw misuse("sparse thresholds need the SPARSE flag");
    }
    if (deallocationThreshold > allocationThreshold) {
      throw misuse("the deallocation threshold must not exceed the allocation threshold");
    }
    if (flags.contains(STATIC) && anySet(INDEPENDENT, WITH_FLUXES, SPARSE)) {
      throw misuse("a STATIC field does not evolve: it cannot be INDEPENDENT, WITH_FLUXES or"
          + " SPARSE");
    }
    if (boundaryCondition != null && !allSet(STATIC, FILL_GHOST, CELL)) {
      throw misuse("a field's own boundary condition needs STATIC, FILL_GHOST and CELL (evolving"
          + " fields follow the deck's)");
    }
    if (refinementOps.internal() == RefinementOps.InternalProlongation.TOTH_AND_ROE
        && topology() != FACE) {
      throw misuse("Toth and Roe's internal prolongation needs FACE topology");
    }
    if (refinementOps.prolongation() == RefinementOps.Prolongation.SHARED_LINEAR
        && topology() != CELL) {
      throw misuse("linear shared prolongation is for CELL fields only");
    }
    if ("periodic".equals(boundaryCondition) || "".equals(boundaryCondition)) {
      throw misuse("a field's own boundary condition is outflow, reflecting or a registered"
          + " name, not '" + boundaryCondition + "'");
    }
  }

  private void exclusive(List<MetadataFlag> group, String groupName) {
    List<MetadataFlag> set = new ArrayList<>();
    for (MetadataFlag f : group) {
      if (flags.contains(f)) {
        set.add(f);
      }
    }
    if (set.size() > 1) {
      throw new IllegalArgumentException("metadata flags " + set + " are exclusive: give at most"
          + " one " + groupName + " flag of " + group);
    }
  }

  private IllegalArgumentException misuse(String rule) {
    return new IllegalArgumentException("invalid metadata: " + rule + " (" + this + ")");
  }

  /** Whether {@code flag} is set (defaults included). */
  public boolean isSet(MetadataFlag flag) {
    return flags.contains(flag);
  }

  /** Whether every one of {@code wanted} is set. */
  public boolean allSet(MetadataFlag... wanted) {
    for (MetadataFlag f : wanted) {
      if (!flags.contains(f)) {
        return false;
      }
    }
    return true;
  }

  /** Whether any of {@code wanted} is set. */
  public boolean anySet(MetadataFlag... wanted) {
    for (MetadataFlag f : wanted) {
      if (flags.contains(f)) {
        return true;
      }
    }
    return false;
  }

  /** Every set flag, defaults included, in declaration order. */
  public Set<MetadataFlag> flags() {
    return Collections.unmodifiableSet(flags);
  }

  /** The topology flag ({@code NONE}, {@code CELL}, {@code FACE}, {@code EDGE} or {@code NODE}). */
  public MetadataFlag topology() {
    return topology;
  }

  /** The role flag ({@code PRIVATE}, {@code PROVIDES}, {@code REQUIRES} or {@code OVERRIDABLE}). */
  public MetadataFlag role() {
    return first(ROLE);
  }

  /** Indexed: boundary-cache builds ask once per boundary, with no iterator even before C2. */
  private MetadataFlag first(List<MetadataFlag> group) {
    for (int g = 0; g < group.size(); g++) {
      MetadataFlag f = group.get(g);
      if (flags.contains(f)) {
        return f;
      }
    }
    throw new IllegalStateException("no flag of " + group + " in " + flags);
  }

  /**
   * Where the field's values live on a cell, in storage order (Parthenon's {@code
   * GetTopologicalElements}): {@code CC} for cell fields and fields without topology, {@code
   * F1, F2, F3} for face fields, {@code E1, E2, E3} for edge fields, {@code NN} for node fields.
   */
  public List<TopologicalElement> elements() {
    return switch (topology()) {
      case FACE -> FACE_ELEMENTS;
      case EDGE -> EDGE_ELEMENTS;
      case NODE -> NODE_ELEMENTS;
      default -> CELL_ELEMENTS;
    };
  }

  /** Whether the field lives on the mesh (any topology but {@code NONE}). */
  public boolean isMeshTied() {
    return !flags.contains(NONE);
  }

  /**
   * Whether refinement moves this field between levels (Parthenon's {@code IsRefined}): it is
   * independent, filled in ghosts, or forced through remesh communication; such fields get coarse
   * buffers on multilevel meshes.
   */
  public boolean isRefined() {
    return anySet(INDEPENDENT, FILL_GHOST, FORCE_REMESH_COMM);
  }

  /**
   * Whether the field has twice the block's resolution ({@link MetadataFlag#FINE}, Parthenon's
   * {@code IsSet(Fine)}): its values are indexed by {@code MeshBlock.fineCellBounds()}.
   */
  public boolean isFine() {
    return flags.contains(FINE);
  }

  /** Whether each stage container gets its own copy: independent fields that are not one-copy. */
  public boolean hasStageCopies() {
    return flags.contains(INDEPENDENT) && !flags.contains(ONE_COPY);
  }

  /**
   * The physical boundary condition a {@code STATIC} field declares for itself ({@code outflow},
   * {@code reflecting} or a name the application registers), or null to follow the deck's
   * condition of each face. Periodic faces are always filled from the other side.
   */
  public String boundaryCondition() {
    return boundaryCondition;
  }

  /**
   * The operators that move the field between levels (Parthenon's {@code
   * GetRefinementFunctions}); {@link RefinementOps#DEFAULT} unless the builder set others.
   */
  public RefinementOps refinementOps() {
    return refinementOps;
  }

  /** The component shape; empty for a scalar. */
  public int[] shape() {
    return shape.clone();
  }

  /** The number of components: the product of the shape (1 for a scalar). */
  public int numComponents() {
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    return n;
  }

  /** Labels of the components for outputs; empty when none were given. */
  public List<String> componentLabels() {
    return componentLabels;
  }

  /** Sparse fields: allocate a block when a value's magnitude exceeds this. */
  public double allocationThreshold() {
    return allocationThreshold;
  }

  /**
   * Whether the thresholds were set on this metadata; otherwise the deck's {@code
   * <parthenon/sparse>} thresholds apply ({@link SparseConfig}).
   */
  public boolean hasOwnThresholds() {
    return ownThresholds;
  }

  /** Sparse fields: a block may be deallocated when every value's magnitude is below this. */
  public double deallocationThreshold() {
    return deallocationThreshold;
  }

  /** Sparse fields: the value an unallocated block reads as, and a new block starts from. */
  public double defaultValue() {
    return defaultValue;
  }

  /**
   * Whether the two describe the same storage and behaviour (equal flags and shape), as
   * Parthenon's {@code Metadata::operator==}; labels and thresholds may differ.
   */
  public boolean compatible(Metadata other) {
    return flags.equals(other.flags) && Arrays.equals(shape, other.shape);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Metadata m)) {
      return false;
    }
    return compatible(m) && componentLabels.equals(m.componentLabels)
        && Double.compare(allocationThreshold, m.allocationThreshold) == 0
        && Double.compare(deallocationThreshold, m.deallocationThreshold) == 0
        && Double.compare(defaultValue, m.defaultValue) == 0
        && Objects.equals(boundaryCondition, m.boundaryCondition)
        && refinementOps.equals(m.refinementOps);
  }

  @Override
  public int hashCode() {
    return Objects.hash(flags, Arrays.hashCode(shape), componentLabels);
  }

  /** For example {@code Metadata[CELL, PROVIDES, INDEPENDENT, FILL_GHOST shape=[3]]}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Metadata").append(flags);
    s.setLength(s.length() - 1);
    s.append(" shape=").append(Arrays.toString(shape));
    if (!componentLabels.isEmpty()) {
      s.append(" labels=").append(componentLabels);
    }
    if (!refinementOps.equals(RefinementOps.DEFAULT)) {
      s.append(" refinement=").append(refinementOps);
    }
    return s.append(']').toString();
  }

  /** Collects the properties of a {@link Metadata}; {@link #build} checks them. */
  public static final class Builder {
    private final EnumSet<MetadataFlag> flags = EnumSet.noneOf(MetadataFlag.class);
    private int[] shape = new int[0];
    private List<String> labels = List.of();
    private double allocationThreshold = DEFAULT_ALLOCATION_THRESHOLD;
    private double deallocationThreshold = DEFAULT_DEALLOCATION_THRESHOLD;
    private double defaultValue;
    private boolean thresholdsSet;
    private String boundaryCondition;
    private RefinementOps refinementOps = RefinementOps.DEFAULT;

    private Builder(MetadataFlag[] initial) {
      flags.addAll(Arrays.asList(initial));
    }

    /** Adds flags. */
    public Builder set(MetadataFlag... more) {
      flags.addAll(Arrays.asList(more));
      return this;
    }

    /** Removes flags (e.g. to derive a variant with another role). */
    public Builder unset(MetadataFlag... fewer) {
      flags.removeAll(Arrays.asList(fewer));
      return this;
    }

    /** The component shape, e.g. {@code shape(3)} for a 3-vector; none for a scalar. */
    public Builder shape(int... dims) {
      this.shape = dims.clone();
      return this;
    }

    /** One label per component, for outputs. */
    public Builder componentLabels(String... componentLabels) {
      this.labels = List.of(componentLabels);
      return this;
    }

    /** Sparse fields: allocation and deallocation thresholds and the unallocated value. */
    public Builder sparseThresholds(double allocation, double deallocation, double unallocated) {
      this.allocationThreshold = allocation;
      this.deallocationThreshold = deallocation;
      this.defaultValue = unallocated;
      this.thresholdsSet = true;
      return this;
    }

    /**
     * A {@code STATIC} field's own physical boundary condition ({@code outflow}, {@code
     * reflecting} or a registered name) instead of the deck's: a mask that must not be mirrored,
     * say, where the flow reflects.
     */
    public Builder boundaryCondition(String name) {
      this.boundaryCondition = name;
      return this;
    }

    /**
     * The operators that move the field between levels (Parthenon's {@code
     * RegisterRefinementOps}); Toth and Roe's internal prolongation needs {@code FACE}.
     */
    public Builder refinementOps(RefinementOps ops) {
      if (ops == null) {
        throw new IllegalArgumentException("refinement operators must not be null");
      }
      this.refinementOps = ops;
      return this;
    }

    /** The checked, immutable metadata. */
    public Metadata build() {
      return new Metadata(this);
    }
  }
}
