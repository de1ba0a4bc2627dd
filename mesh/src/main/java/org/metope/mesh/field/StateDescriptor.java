package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.List;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.SimTime;

/**
 * A physics package (Parthenon's {@code StateDescriptor}): its label, parameters, fields, sparse
 * pools, callbacks and history outputs.
 *
 * <pre>{@code
 * StateDescriptor pkg = new StateDescriptor("advection_package");
 * pkg.addParam("cfl", pin.getOrAddReal("Advection", "cfl", 0.45));
 * pkg.addField("advected", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
 *     Metadata.WITH_FLUXES, Metadata.FILL_GHOST).shape(vecSize).build());
 * pkg.addSparsePool("one_minus_sqrt_one_minus_advected_sq", Metadata.of(Metadata.CELL,
 *     Metadata.DERIVED, Metadata.ONE_COPY, Metadata.SPARSE, Metadata.RESTART), 12, 37);
 * pkg.setFillDerived(AdvectionPackage::squareIt);
 * pkg.setEstimateTimestep(AdvectionPackage::estimateTimestep);
 * pkg.setCheckRefinement(AdvectionPackage::checkRefinement);
 * pkg.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.SUM, "total_advected",
 *     AdvectionPackage::totalAdvected));
 * }</pre>
 *
 * <p>Fields and sparse pools keep their declaration order; {@link Packages#resolve} uses it to
 * give every field of the run a fixed position. Declaring a name twice is a programming error.
 * Callbacks that were not set do nothing ({@link #estimateTimestep} then allows any step).
 *
 * <p>Callbacks come at Parthenon's two levels: the partition level ({@code setFillDerived}, ...,
 * Parthenon's {@code FillDerivedMesh}) and the block level ({@code setFillDerivedBlock}, ...,
 * Parthenon's {@code FillDerivedBlock}). A package may set either or both; the invokers here run
 * the partition-level callback first, then the block-level one on each block of the partition in
 * order. A time step estimate is the minimum of both levels, a refinement tag the maximum.
 */
public final class StateDescriptor {
  private final String label;
  private final Params params;
  private final FieldDeclarations fields;
  private final List<HistoryOutput> historyOutputs = new ArrayList<>();
  private final SwarmDeclarations swarms;
  private MeshDataCallback preCommFillDerived;
  private MeshDataCallback preFillDerived;
  private MeshDataCallback fillDerived;
  private MeshDataCallback postFillDerived;
  private MeshDataCallback initNewlyAllocatedVars;
  private TimestepEstimator estimateTimestep;
  private RefinementCheck checkRefinement;
  private BlockCallback preCommFillDerivedBlock;
  private BlockCallback preFillDerivedBlock;
  private BlockCallback fillDerivedBlock;
  private BlockCallback postFillDerivedBlock;
  private BlockTimestepEstimator estimateTimestepBlock;
  private BlockRefinementCheck checkRefinementBlock;
  private StepDiagnostics preStepDiagnostics;
  private StepDiagnostics postStepDiagnostics;
  private FluxFunction calculateFluxes;
  private SourceTerm sourceTerm;

  /** A package named {@code label} (unique among the packages of a run). */
  public StateDescriptor(String label) {
    if (label == null || label.isBlank() || label.contains("::")) {
      throw new IllegalArgumentException("package label=" + label
          + " must be non-blank and must not contain '::'");
    }
    this.label = label;
    this.params = new Params(label);
    this.fields = new FieldDeclarations(label);
    this.swarms = new SwarmDeclarations(label);
  }

  /** Checks a field or pool name: non-empty, no whitespace, no {@code ::} (kept for private fields). */
  static void checkName(String name) {
    if (name == null || name.isEmpty() || name.contains("::")
        || name.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("field name=" + name
          + " must be non-empty, without whitespace and without '::'");
    }
  }

  /** The package label. */
  public String label() {
    return label;
  }

  // ---- parameters ----------------------------------------------------------------------------

  /** Every parameter of the package (Parthenon's {@code AllParams}). */
  public Params params() {
    return params;
  }

  /** Adds an immutable parameter. */
  public void addParam(String key, Object value) {
    params.add(key, value);
  }

  /** Adds a parameter with the given mutability. */
  public void addParam(String key, Object value, Params.Mutability mutability) {
    params.add(key, value, mutability);
  }

  /** Adds an immutable parameter that HDF5 outputs leave out ({@link Params#addUnwritten}). */
  public void addUnwrittenParam(String key, Object value) {
    params.addUnwritten(key, value);
  }

  /** Updates a mutable parameter. */
  public void updateParam(String key, Object value) {
    params.update(key, value);
  }

  /** A parameter of the given type. */
  public <T> T param(String key, Class<T> type) {
    return params.get(key, type);
  }

  // ---- fields -------------------------------------------------------------------------------

  /** Declares a dense field. */
  public void addField(String name, Metadata metadata) {
    fields.addField(name, metadata);
  }

  /** Declares a sparse pool; its fields are {@code base_id} for each id. */
  public void addSparsePool(SparsePool pool) {
    fields.addSparsePool(pool);
  }

  /** Declares a sparse pool with the given ids sharing {@code metadata}. */
  public SparsePool addSparsePool(String baseName, Metadata metadata, int... sparseIds) {
    SparsePool pool = new SparsePool(baseName, metadata, sparseIds);
    addSparsePool(pool);
    return pool;
  }

  /** Whether {@code name} is a dense field or a sparse field ({@code base_id}) of this package. */
  public boolean fieldPresent(String name) {
    return fields.fieldPresent(name);
  }

  /** Whether {@code baseName} is a sparse pool of this package. */
  public boolean sparseBaseNamePresent(String baseName) {
    return fields.declaration(baseName) instanceof SparsePool;
  }

  /** The metadata of a dense field or of one sparse field ({@code base_id}). */
  public Metadata fieldMetadata(String name) {
    return fields.fieldMetadata(name);
  }

  /** A sparse pool by base name. */
  public SparsePool sparsePool(String baseName) {
    return fields.sparsePool(baseName);
  }

  /** Names of dense fields and sparse pool base names, in declaration order. */
  public List<String> declarationNames() {
    return fields.declarationNames();
  }

  /** The declaration of a name: a {@link Metadata} (dense) or a {@link SparsePool}. */
  Object declaration(String name) {
    return fields.declaration(name);
  }

  /** Every field name (sparse fields as {@code base_id}, ids ascending) in declaration order. */
  public List<String> fields() {
    return fields.fieldNames();
  }

  // ---- swarms -------------------------------------------------------------------------------

  /**
   * Declares swarm {@code name} (Parthenon's {@code AddSwarm}); it has the real positions {@code
   * x}, {@code y}, {@code z} and the values added with {@link #addSwarmValue}.
   */
  public void addSwarm(String name, Metadata metadata) {
    swarms.addSwarm(name, metadata);
  }

  /**
   * Declares value {@code name} of swarm {@code swarm} (Parthenon's {@code AddSwarmValue}): real
   * unless {@link MetadataFlag#INTEGER}, with the metadata's shape (a vector or tensor).
   */
  public void addSwarmValue(String name, String swarm, Metadata metadata) {
    swarms.addValue(name, swarm, metadata);
  }

  /** Whether this package declares swarm {@code name}. */
  public boolean swarmPresent(String name) {
    return swarms.contains(name);
  }

  /** The layouts of this package's swarms, in declaration order. */
  public List<SwarmLayout> swarms() {
    return swarms.layouts();
  }

  // ---- callbacks ----------------------------------------------------------------------------

  /** Sets the callback run before ghost exchange to fill derived fields needed in ghosts. */
  public void setPreCommFillDerived(MeshDataCallback callback) {
    this.preCommFillDerived = callback;
  }

  /** Sets the callback run before every package's {@link #fillDerived}. */
  public void setPreFillDerived(MeshDataCallback callback) {
    this.preFillDerived = callback;
  }

  /** Sets the callback that fills derived fields from independent ones. */
  public void setFillDerived(MeshDataCallback callback) {
    this.fillDerived = callback;
  }

  /** Sets the callback run after every package's {@link #fillDerived}. */
  public void setPostFillDerived(MeshDataCallback callback) {
    this.postFillDerived = callback;
  }

  /** Sets the callback that initialises sparse fields just allocated on some blocks. */
  public void setInitNewlyAllocatedVars(MeshDataCallback callback) {
    this.initNewlyAllocatedVars = callback;
  }

  /** Sets the time step estimate. */
  public void setEstimateTimestep(TimestepEstimator estimator) {
    this.estimateTimestep = estimator;
  }

  /** Sets the refinement criterion. */
  public void setCheckRefinement(RefinementCheck check) {
    this.checkRefinement = check;
  }

  /** Sets the per-block variant of {@link #setPreCommFillDerived}. */
  public void setPreCommFillDerivedBlock(BlockCallback callback) {
    this.preCommFillDerivedBlock = callback;
  }

  /** Sets the per-block variant of {@link #setPreFillDerived}. */
  public void setPreFillDerivedBlock(BlockCallback callback) {
    this.preFillDerivedBlock = callback;
  }

  /** Sets the per-block variant of {@link #setFillDerived}. */
  public void setFillDerivedBlock(BlockCallback callback) {
    this.fillDerivedBlock = callback;
  }

  /** Sets the per-block variant of {@link #setPostFillDerived}. */
  public void setPostFillDerivedBlock(BlockCallback callback) {
    this.postFillDerivedBlock = callback;
  }

  /** Sets the per-block time step estimate. */
  public void setEstimateTimestepBlock(BlockTimestepEstimator estimator) {
    this.estimateTimestepBlock = estimator;
  }

  /** Sets the per-block refinement criterion. */
  public void setCheckRefinementBlock(BlockRefinementCheck check) {
    this.checkRefinementBlock = check;
  }

  /** Sets the diagnostics run on every partition before each step. */
  public void setPreStepDiagnostics(StepDiagnostics diagnostics) {
    this.preStepDiagnostics = diagnostics;
  }

  /** Sets the diagnostics run on every partition after each step. */
  public void setPostStepDiagnostics(StepDiagnostics diagnostics) {
    this.postStepDiagnostics = diagnostics;
  }

  /** Runs the pre-communication fill-derived callbacks (partition, then each block), if set. */
  public void preCommFillDerived(MeshData md) {
    run(preCommFillDerived, preCommFillDerivedBlock, md);
  }

  /** Runs the pre-fill-derived callbacks (partition, then each block), if set. */
  public void preFillDerived(MeshData md) {
    run(preFillDerived, preFillDerivedBlock, md);
  }

  /** Runs the fill-derived callbacks (partition, then each block), if set. */
  public void fillDerived(MeshData md) {
    run(fillDerived, fillDerivedBlock, md);
  }

  /** Runs the post-fill-derived callbacks (partition, then each block), if set. */
  public void postFillDerived(MeshData md) {
    run(postFillDerived, postFillDerivedBlock, md);
  }

  /** Runs the pre-step diagnostics, if set. */
  public void preStepDiagnostics(SimTime tm, MeshData md) {
    if (preStepDiagnostics != null) {
      preStepDiagnostics.apply(tm, md);
    }
  }

  /** Runs the post-step diagnostics, if set. */
  public void postStepDiagnostics(SimTime tm, MeshData md) {
    if (postStepDiagnostics != null) {
      postStepDiagnostics.apply(tm, md);
    }
  }

  /** Runs the newly-allocated initialisation callback, if set. */
  public void initNewlyAllocatedVars(MeshData md) {
    run(initNewlyAllocatedVars, md);
  }

  private static void run(MeshDataCallback callback, MeshData md) {
    if (callback != null) {
      callback.apply(md);
    }
  }

  private static void run(MeshDataCallback callback, BlockCallback blockCallback, MeshData md) {
    run(callback, md);
    if (blockCallback != null) {
      for (int b = 0; b < md.numBlocks(); b++) {
        blockCallback.apply(md, b);
      }
    }
  }

  /**
   * The package's time step limit on {@code md}: the minimum of its partition estimate and its
   * estimate on every block, {@code Double.MAX_VALUE} when it has neither.
   */
  public double estimateTimestep(MeshData md) {
    double dt = estimateTimestep == null ? Double.MAX_VALUE : estimateTimestep.estimate(md);
    if (estimateTimestepBlock != null) {
      for (int b = 0; b < md.numBlocks(); b++) {
        dt = Math.min(dt, estimateTimestepBlock.estimate(md, b));
      }
    }
    return dt;
  }

  /** Whether pre- or post-step diagnostics are set. */
  public boolean hasStepDiagnostics() {
    return preStepDiagnostics != null || postStepDiagnostics != null;
  }

  /** Whether any fill-derived callback is set (any phase, either level). */
  public boolean hasFillDerived() {
    return preFillDerived != null || preFillDerivedBlock != null || fillDerived != null
        || fillDerivedBlock != null || postFillDerived != null || postFillDerivedBlock != null;
  }

  /**
   * Whether the time step estimate may read field values: a block estimator, or a partition
   * estimator that does not say it reads none ({@link TimestepEstimator#readsFields}).
   */
  public boolean timestepReadsFields() {
    return estimateTimestepBlock != null
        || (estimateTimestep != null && estimateTimestep.readsFields());
  }

  /**
   * The package's fill-derived work on {@code md} as stage launches ({@link
   * MeshDataCallback#launches}): empty when it fills nothing, null when some callback runs on the
   * host only (pre- and post-fill and per-block callbacks always do).
   */
  public List<StageLaunch> fillDerivedLaunches(MeshData md) {
    if (preFillDerived != null || preFillDerivedBlock != null || fillDerivedBlock != null
        || postFillDerived != null || postFillDerivedBlock != null) {
      return null;
    }
    return fillDerived == null ? List.of() : fillDerived.launches(md);
  }

  /**
   * The package's time step estimate on {@code md} as a launch ({@link
   * TimestepEstimator#smallestStepLaunch}); null when it has none or a per-block estimator.
   */
  public StageLaunch timestepLaunch(MeshData md) {
    return estimateTimestep == null || estimateTimestepBlock != null ? null
        : estimateTimestep.smallestStepLaunch(md);
  }

  /** The package's estimate from the smallest result of its {@link #timestepLaunch}. */
  public double timestepFromSmallest(MeshData md, double smallest) {
    return estimateTimestep.fromSmallest(md, smallest);
  }

  /** Whether the package has a refinement criterion (at either level). */
  public boolean hasCheckRefinement() {
    return checkRefinement != null || checkRefinementBlock != null;
  }

  /**
   * The device form of the package's refinement criterion on {@code md} ({@link
   * RefinementCheck#onDevice}), or null when the criterion runs on the host only (also with a
   * per-block criterion, which is host code) or there is none.
   */
  public RefinementCheck.OnDevice refinementOnDevice(MeshData md) {
    return checkRefinement == null || checkRefinementBlock != null ? null
        : checkRefinement.onDevice(md);
  }

  /**
   * Runs the refinement criteria, if set, writing one tag per block into {@code tags}: the
   * partition-level criterion first, then each block's answer raises its tag if higher.
   */
  public void checkRefinement(MeshData md, int[] tags) {
    if (checkRefinement != null) {
      checkRefinement.check(md, tags);
    }
    if (checkRefinementBlock != null) {
      for (int b = 0; b < md.numBlocks(); b++) {
        int tag = checkRefinementBlock.check(md, b);
        if (tag < AmrTag.DEREFINE_VALUE || tag > AmrTag.REFINE_VALUE) {
          throw new IllegalStateException("package=" + label + " block criterion answered tag="
              + tag + " for block=" + b + "; expected -1 (derefine), 0 (same) or 1 (refine)");
        }
        tags[b] = Math.max(tags[b], tag);
      }
    }
  }

  // ---- fluxes and sources (the flux driver's callbacks) ---------------------------------------

  /**
   * Sets the function that computes the fluxes of this package's {@code WITH_FLUXES} fields
   * (Parthenon's {@code CalculateFluxes}); a flux driver calls it every stage.
   */
  public void setCalculateFluxes(FluxFunction function) {
    this.calculateFluxes = function;
  }

  /** The flux function, or null when the package computes no fluxes. */
  public FluxFunction calculateFluxes() {
    return calculateFluxes;
  }

  /** Sets the source term a flux driver adds to {@code dU/dt} after the flux divergence. */
  public void setSourceTerm(SourceTerm source) {
    this.sourceTerm = source;
  }

  /** The source term, or null when the package has none. */
  public SourceTerm sourceTerm() {
    return sourceTerm;
  }

  // ---- history --------------------------------------------------------------------------------

  /** Adds a history output; labels must be unique within the package. */
  public void addHistoryOutput(HistoryOutput output) {
    for (HistoryOutput h : historyOutputs) {
      if (h.label().equals(output.label())) {
        throw new IllegalArgumentException("package=" + label + " already has history output label="
            + output.label());
      }
    }
    historyOutputs.add(output);
  }

  /** History outputs in the order added. */
  public List<HistoryOutput> historyOutputs() {
    return List.copyOf(historyOutputs);
  }
}
