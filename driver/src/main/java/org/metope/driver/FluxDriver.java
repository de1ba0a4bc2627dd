package org.metope.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.DoubleUnaryOperator;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.SparseDeallocation;
import org.metope.mesh.update.Stokes;
import org.metope.mesh.update.Update;
import org.metope.tasking.Task;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;
import org.metope.tasking.TaskThreadPool;

/**
 * A multi-stage driver for packages that evolve their fields by fluxes (Parthenon's advection
 * driver, made reusable): a package declares cell or face fields {@link
 * MetadataFlag#WITH_FLUXES} and
 * registers a {@linkplain StateDescriptor#setCalculateFluxes flux function} (and optionally a
 * {@linkplain StateDescriptor#setSourceTerm source term}); this driver runs them with the deck's
 * integrator, flux correction at fine/coarse faces, the boundary exchange with physical boundary
 * conditions, derived fields, sparse deallocation, the time step, refinement tags and history,
 * without a task list of the package's own. Several packages may contribute fluxes; they run in
 * package order. The advection, burgers, sparse_advection and diffusion examples all run on it;
 * what sets them apart is an {@link Options} value.
 *
 * <p>Each stage is one task region with one list per partition of blocks ({@code <parthenon/mesh>
 * pack_size}); a list, for its partition: posts the receives of boundary values and of flux
 * corrections; calls every flux function ({@code CalculateFluxes}); corrects fluxes; writes the
 * flux divergence into {@code dUdt} (for a {@code FINE} cell field over its own cells and widths;
 * for face fields the circulation of their edge fluxes, {@link Stokes}, after the same flux
 * correction) and adds every source term; updates the
 * independent fields (see {@link StageUpdate}, chosen with the deck by {@link
 * StageUpdateChoice}); exchanges boundary values (see {@link Options#prolongateGhosts});
 * fills derived fields; in the last stage runs the sparse deallocation (see below), estimates the
 * time step and, on an adaptive mesh, tags blocks for refinement. A partition touches only its
 * own blocks (ghost cells arrive through the boundary tasks), so one region is as safe as
 * Parthenon's four.
 *
 * <p><b>Sparse deallocation is the framework's.</b> When {@code <parthenon/sparse> enable_sparse}
 * is true and some field is {@linkplain SparseDeallocation#isFreedByFramework freed by the
 * framework} (sparse, filled in ghosts by the stage exchange), the last stage ends each list with
 * {@code SparseDealloc} (Parthenon's {@code Update::SparseDealloc}), and the time step and tags
 * move to a second region so that they see every deallocation of the cycle, as in Parthenon's
 * sparse_advection driver. A package never adds that task itself.
 *
 * <p>Set-up checks ({@link FluxPackages}): at least one package has a flux function, every
 * package with a flux function has fields with fluxes and every package with fields with fluxes
 * has a flux function; a violation is an {@link IllegalStateException} naming the package, at
 * construction.
 */
public class FluxDriver extends MultiStageDriver {

  /**
   * How a stage combines the containers into its output. A scheme is consistent when a constant
   * {@code dU/dt} advances the solution by {@code dt} per step ({@link #isConsistentWith}).
   */
  public enum StageUpdate {
    /**
     * The two-register low-storage form the integrator's weights are made for (Parthenon's
     * {@code UpdateWithFluxDivergence}): with {@code S1 = base} and {@code S2 = "1"}, stage
     * {@code s} sets {@code S2 = S2 + delta_s S1} ({@code S2 = delta_1 S1} in stage 1), then
     * {@code S1 = gam0_s S1 + gam1_s S2 + beta_s dt dU/dt(S1)}. Every stage reads and writes
     * {@code base}. Consistent for every integrator ({@code rk1}, {@code rk2}, {@code vl2},
     * {@code rk3}, {@code rk4}); the default.
     */
    LOW_STORAGE,
    /**
     * Parthenon's advection example: stage {@code s} reads {@code stageName(s - 1)} ({@code
     * in}), sets {@code in = beta_s in + (1 - beta_s) base} and writes {@code stageName(s) = in +
     * beta_s dt dU/dt(in)}. It equals the low-storage form for {@code rk1}, {@code rk2} and
     * {@code rk3} (up to rounding) but not for {@code vl2} or {@code rk4}, where it advances the
     * solution by other than {@code dt} per step (vl2: {@code 1.5 dt}, rk4: {@code 0.66 dt}); it
     * reproduces Parthenon's
     * advection outputs bit for bit. A driver runs it with {@code vl2} or {@code rk4} only when
     * the deck asks ({@link StageUpdateChoice}), and says so at start-up.
     */
    ADVECTION_EXAMPLE;

    /**
     * One step of this update on a single value {@code u} whose rate of change is {@code dudt}:
     * the field update of one cell, stage by stage, with {@code integrator}'s weights.
     */
    public double step(LowStorageIntegrator integrator, double u, double dt,
        DoubleUnaryOperator dudt) {
      double s1 = u;
      double s2 = 0.0;
      double in = u;
      for (int stage = 1; stage <= integrator.nstages(); stage++) {
        double beta = integrator.beta(stage);
        if (this == LOW_STORAGE) {
          double rate = dudt.applyAsDouble(s1);
          s2 = stage == 1 ? integrator.delta(stage) * s1 : s2 + integrator.delta(stage) * s1;
          s1 = integrator.gam0(stage) * s1 + integrator.gam1(stage) * s2 + beta * dt * rate;
        } else {
          double rate = dudt.applyAsDouble(in);
          in = beta * in + (1.0 - beta) * u + beta * dt * rate;
        }
      }
      return this == LOW_STORAGE ? s1 : in;
    }

    /** How far one step of {@code dt = 1} carries a constant rate of change of 1. */
    public double advancePerStep(LowStorageIntegrator integrator) {
      return step(integrator, 0.0, 1.0, u -> 1.0);
    }

    /** Whether this update with {@code integrator} advances a constant rate by {@code dt}. */
    public boolean isConsistentWith(LowStorageIntegrator integrator) {
      return Math.abs(advancePerStep(integrator) - 1.0) <= 1e-12;
    }
  }

  /**
   * How a {@link FluxDriver} runs its stages; start from {@link #DEFAULT} and change what a
   * package needs.
   *
   * @param stageUpdate how a stage combines the containers ({@link StageUpdate#LOW_STORAGE} unless
   *     a result must match one of Parthenon's examples); an update that is not consistent with
   *     the deck's integrator runs only when the deck asks for it ({@link StageUpdateChoice})
   * @param prolongateGhosts true (the default): the stage exchange fills every ghost cell, ghosts
   *     that face a coarser block by prolongation, then applies the physical boundary conditions
   *     ({@link BoundaryCommunication#addBoundaryExchange}); false: it fills only ghosts that face
   *     blocks of the same or a finer level ({@link
   *     BoundaryCommunication#addBoundaryExchangeWithoutProlongation}), the others keep the values
   *     of the last start-up or remesh fill, then the physical boundary conditions.
   *     False is what Parthenon's burgers benchmark does; it is not a consistent scheme on a
   *     refined mesh and is there to reproduce that benchmark: an application that sets it should
   *     {@linkplain FluxDriver#announce announce} it
   * @param userWork the application's work before and after the loop and before outputs
   */
  public record Options(StageUpdate stageUpdate, boolean prolongateGhosts, UserWork userWork) {
    /** The low-storage update, prolongated ghosts, no user work. */
    public static final Options DEFAULT = new Options(StageUpdate.LOW_STORAGE, true, UserWork.NONE);

    /** Checks that no option is null. */
    public Options {
      Objects.requireNonNull(stageUpdate, "stageUpdate");
      Objects.requireNonNull(userWork, "userWork");
    }

    /** These options with {@code update}. */
    public Options withStageUpdate(StageUpdate update) {
      return new Options(update, prolongateGhosts, userWork);
    }

    /** These options with ghost prolongation in every stage on ({@code true}) or off. */
    public Options withProlongateGhosts(boolean prolongate) {
      return new Options(stageUpdate, prolongate, userWork);
    }

    /** These options with {@code work}. */
    public Options withUserWork(UserWork work) {
      return new Options(stageUpdate, prolongateGhosts, work);
    }
  }

  /** The container of the flux divergence ({@code dU/dt}). */
  public static final String DUDT = "dUdt";

  private final BoundaryCommunication boundaries;
  /** The boundary kernels' backend, told when each stage ends. */
  private final KernelBackend kernels;
  /** The stage's physics on the host, or on the device of a resident backend. */
  private final ResidentStage device;
  private final Options settings;
  /** The stage update this driver runs: the settings' or the deck's (StageUpdateChoice). */
  private final StageUpdate update;
  /** Known-inconsistent choices of the deck, said once at start-up with the other warnings. */
  private final List<String> announcements = new ArrayList<>();
  /** The packages with flux functions and source terms, checked at construction. */
  private final FluxPackages fluxPackages;
  /** The last stage's deallocation; null when sparse is off or no field is freed by it. */
  private final SparseDeallocation deallocation;

  /**
   * A driver for {@code mesh}, whose fields are initialised with the containers {@link
   * #containerNames} of {@code integrator}, with {@link Options#DEFAULT}.
   */
  public FluxDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool, BoundaryCommunication boundaries) {
    this(pin, mesh, options, integrator, pool, boundaries, Options.DEFAULT);
  }

  /**
   * A driver for {@code mesh} that runs its stages as {@code settings} say.
   *
   * @param pool the threads that run the partitions' task lists (null: the calling thread)
   * @throws IllegalStateException when no package computes fluxes, or a package has fields with
   *     fluxes but no flux function or the reverse
   */
  public FluxDriver(ParameterInput pin, Mesh mesh, RunOptions options,
      LowStorageIntegrator integrator, TaskThreadPool pool, BoundaryCommunication boundaries,
      Options settings) {
    super(pin, mesh, options, integrator, pool);
    this.boundaries = boundaries;
    this.kernels = boundaries.kernels();
    this.device = new ResidentStage(kernels);
    this.settings = settings;
    this.update = StageUpdateChoice.resolve(pin, settings.stageUpdate(), integrator,
        announcements);
    this.fluxPackages = new FluxPackages(mesh);
    this.deallocation = SparseDeallocation.forMesh(mesh.config().sparse(),
        mesh.resolvedPackages());
    if (kernels.resident() && Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.FACE).length > 0) {
      throw new IllegalStateException("face fields WITH_FLUXES: the device-resident kernel"
          + " backend does not run the Stokes update yet; use the jvm backend");
    }
    if (kernels.resident() && mesh.config().sparse().enabled()
        && Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.SPARSE,
            MetadataFlag.FILL_GHOST).length > 0) {
      throw new IllegalStateException("parthenon/sparse/enable_sparse=true with sparse fields"
          + " whose ghosts are exchanged: the device-resident kernel backend does not exchange"
          + " sparse fields yet; use the jvm backend or enable_sparse=false");
    }
  }

  /** The stage update this driver runs (the deck may replace the application's choice). */
  public StageUpdate stageUpdate() {
    return update;
  }

  /**
   * Adds a line to the warnings printed once at start-up: how an application tells the user
   * that the deck chose a scheme known not to be consistent, and which key selects one that is.
   */
  public void announce(String line) {
    announcements.add(line);
  }

  /** The output warnings, then the announcements of known-inconsistent schemes. */
  @Override
  public List<String> warnings() {
    List<String> all = new ArrayList<>(super.warnings());
    all.addAll(announcements);
    return all;
  }

  /**
   * The containers a flux driver needs: the integrator's stage containers and {@link #DUDT}.
   */
  public static List<String> containerNames(LowStorageIntegrator integrator) {
    List<String> names = new ArrayList<>(integrator.containerNames());
    names.add(DUDT);
    return names;
  }

  /** A device backend prints what the stage moved when {@code METOPE_DEVICE_TRACE=1}. */
  @Override
  protected void stageFinished(int stage) {
    kernels.endStage(tm.ncycle(), stage);
  }

  /**
   * The tasks of stage {@code stage} (1-based): one list per partition in one region, and in the
   * last stage, when the framework deallocates, a second region; public so that tests can read
   * the task order.
   */
  @Override
  public TaskCollection makeTaskCollection(int stage) {
    TaskCollection tc = new TaskCollection();
    boolean lowStorage = update == StageUpdate.LOW_STORAGE;
    List<MeshData> base = mesh.meshData("base");
    List<MeshData> in = lowStorage ? base : mesh.meshData(integrator.stageName(stage - 1));
    List<MeshData> out = lowStorage ? base : mesh.meshData(integrator.stageName(stage));
    List<MeshData> second = lowStorage && integrator.nstages() > 1 ? mesh.meshData("1") : null;
    List<MeshData> dudt = mesh.meshData(DUDT);
    int[] withFluxes = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.CELL);
    int[] faceFields = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.FACE);
    int[] independent = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.INDEPENDENT);
    boolean lastStage = stage == integrator.nstages();
    boolean deallocate = lastStage && deallocation != null;
    int partitions = base.size();
    TaskRegion region = tc.addRegion(partitions);
    for (int p = 0; p < partitions; p++) {
      TaskList tl = region.get(p);
      MeshData mc0 = in.get(p);
      MeshData mc1 = out.get(p);
      MeshData mdudt = dudt.get(p);
      TaskId receiveBounds = tl.addTask(TaskId.NONE, "StartReceiveBoundBufs",
          () -> boundaries.startReceiveBoundaries(mc1));
      TaskId receiveFluxes = tl.addTask(TaskId.NONE, "StartReceiveFluxCorrections",
          () -> boundaries.startReceiveFluxCorrections(mc0));
      TaskId fluxes = tl.addTask(TaskId.NONE, "CalculateFluxes",
          device.fluxes(mc0, fluxPackages.withFluxes, fluxPackages.fields,
              () -> fluxPackages.calculateFluxes(mc0)));
      TaskId setFluxes = boundaries.addFluxCorrection(fluxes.and(receiveFluxes), tl, mc0);
      TaskId divergence = tl.addTask(setFluxes, "FluxDivergence",
          device.divergence(mc0, mdudt, withFluxes));
      if (faceFields.length > 0) {
        divergence = tl.addTask(divergence, "Stokes",
            device.onHost(mc0, true, () -> Stokes.update(mc0, mdudt, faceFields)));
      }
      if (fluxPackages.hasSources()) {
        divergence = tl.addTask(divergence, "AddSources",
            device.onHost(mc0, true, () -> fluxPackages.addSources(mc0, mdudt)));
      }
      TaskId update = lowStorage
          ? addLowStorageUpdate(divergence, tl, stage, independent, mc0,
              second == null ? null : second.get(p), mdudt)
          : addAverageAndUpdate(divergence, tl, stage, independent, mc0, base.get(p),
              mdudt, mc1);
      TaskId exchanged = addExchange(update.and(receiveBounds), tl, mc1);
      TaskId derived = tl.addTask(exchanged, "FillDerived", fillDerived(mc1));
      if (deallocate) {
        tl.addTask(derived, "SparseDealloc", () -> deallocation.sparseDealloc(mc1));
      } else if (lastStage) {
        addTimestepAndTags(derived, tl, mc1, partitions);
      }
    }
    if (deallocate) {
      TaskRegion after = tc.addRegion(partitions);
      for (int p = 0; p < partitions; p++) {
        addTimestepAndTags(TaskId.NONE, after.get(p), out.get(p), partitions);
      }
    }
    return tc;
  }

  /**
   * The boundary exchange of {@code md} after {@code dependency}, ending with the physical
   * boundary conditions (as Parthenon's does), with or without prolongation ({@link
   * Options#prolongateGhosts}).
   */
  private TaskId addExchange(TaskId dependency, TaskList tl, MeshData md) {
    return settings.prolongateGhosts() ? boundaries.addBoundaryExchange(dependency, tl, md)
        : boundaries.addBoundaryExchangeWithoutProlongation(dependency, tl, md);
  }

  /**
   * The packages' derived fields of {@code md}: on a resident backend on the device where the
   * packages describe them as launches, else on the host (acquired only when some package fills).
   */
  private Task fillDerived(MeshData md) {
    Task fill = () -> {
      mesh.packages().fillDerived(md);
      return TaskStatus.COMPLETE;
    };
    return mesh.packages().hasFillDerived() ? device.fillDerived(md, mesh.packages(), fill)
        : fill;
  }

  /**
   * The time step estimate of {@code md} and, on an adaptive mesh, its refinement tags; on a
   * resident backend the tags are measured on the device unless some criterion is host code
   * ({@link org.metope.mesh.MeshRefinement#tagTask}), and the estimate runs on the device where
   * the packages that read fields describe it as launches ({@link ResidentStage#timestep}), else
   * reads the host copy when some package's reads fields.
   */
  private void addTimestepAndTags(TaskId dependency, TaskList tl, MeshData md, int partitions) {
    boolean reads = mesh.packages().timestepReadsFields();
    DoubleSupplier onDevice = reads ? device.timestep(md, mesh.packages()) : null;
    if (onDevice != null) {
      addEstimateTimestep(dependency, tl, md, partitions, onDevice);
    } else {
      addEstimateTimestep(dependency, tl, md, partitions,
          estimate -> reads ? device.onHost(md, false, estimate) : estimate);
    }
    if (mesh.refinement() != null) {
      tl.addTask(dependency, "Tag", mesh.refinement().tagTask(md, kernels));
    }
  }

  /**
   * {@code S2 = S2 + delta S1} (stage 1: {@code S2 = delta S1}), then {@code S1 = gam0 S1 + gam1
   * S2 + beta dt dUdt}; a one-stage integrator needs no second register ({@code S2 = delta S1}
   * makes {@code S1 = (gam0 + gam1 delta) S1 + beta dt dUdt}).
   */
  private TaskId addLowStorageUpdate(TaskId dependency, TaskList tl, int stage, int[] fields,
      MeshData s1, MeshData s2, MeshData dudt) {
    double delta = integrator.delta(stage);
    double gam0 = integrator.gam0(stage);
    double gam1 = integrator.gam1(stage);
    DoubleSupplier betaDt = () -> integrator.beta(stage) * integrator.dt();
    if (s2 == null) {
      double scale = gam0 + gam1 * delta;
      TaskId scaled = scale == 1.0 ? dependency : tl.addTask(dependency, "WeightedSumData",
          device.weightedSum(fields, s1, s1, () -> scale, () -> 0.0, s1));
      return tl.addTask(scaled, "UpdateIndependentData",
          device.weightedSum(fields, s1, dudt, () -> 1.0, betaDt, s1));
    }
    // Stage 1 overwrites the second register: its old content (or NaN) must not leak in.
    TaskId register = stage == 1
        ? tl.addTask(dependency, "WeightedSumData",
            device.weightedSum(fields, s1, s1, () -> delta, () -> 0.0, s2))
        : tl.addTask(dependency, "WeightedSumData",
            device.weightedSum(fields, s2, s1, () -> 1.0, () -> delta, s2));
    TaskId combined = tl.addTask(register, "AverageIndependentData",
        device.weightedSum(fields, s1, s2, () -> gam0, () -> gam1, s1));
    return tl.addTask(combined, "UpdateIndependentData",
        device.weightedSum(fields, s1, dudt, () -> 1.0, betaDt, s1));
  }

  /**
   * The stage update of Parthenon's advection example on {@code fields}, after {@code
   * dependency}: {@code in = beta in + (1 - beta) base}, then {@code out = in + beta dt dUdt}.
   */
  private TaskId addAverageAndUpdate(TaskId dependency, TaskList tl, int stage, int[] fields,
      MeshData in, MeshData base, MeshData dudt, MeshData out) {
    double beta = integrator.beta(stage);
    TaskId average = tl.addTask(dependency, "AverageIndependentData",
        device.weightedSum(fields, in, base, () -> beta, () -> 1.0 - beta, in));
    return tl.addTask(average, "UpdateIndependentData",
        device.weightedSum(fields, in, dudt, () -> 1.0, () -> beta * integrator.dt(), out));
  }

  @Override
  protected void userWorkBeforeLoop() {
    acquireFieldsOnHost(true);
    settings.userWork().userWorkBeforeLoop(this);
  }

  @Override
  protected void userWorkBeforeOutput() {
    acquireFieldsOnHost(true);
    settings.userWork().userWorkBeforeOutput(this);
  }

  @Override
  protected void userWorkAfterLoop(DriverStatus status) {
    acquireFieldsOnHost(true);
    settings.userWork().userWorkAfterLoop(this, status);
  }

  /**
   * On a device-resident backend: copies the rank's arena back from the device if the device
   * holds the current values, and with {@code write} marks the device copy stale (the next launch
   * uploads the arena again).
   */
  @Override
  protected void acquireFieldsOnHost(boolean write) {
    if (kernels.resident()) {
      for (double[] arena : arenas()) {
        kernels.acquireHost(arena, write);
        kernels.releaseHost(arena);
      }
    }
  }

  /**
   * A remesh replaces the arena: the device copy of the old one is forgotten before anything is
   * written (its host copy was acquired before the remesh began), so that whatever array the
   * remesh writes starts host-current.
   */
  @Override
  protected void meshChanged() {
    super.meshChanged();
    for (double[] arena : arenas()) {
      kernels.releaseArena(arena);
    }
  }

  /**
   * The distinct data arenas of the partitions of {@code base} (one per rank). Plain loops: this
   * runs once per remesh or output, where a stream's set-up costs more, interpreted, than the
   * search.
   */
  private List<double[]> arenas() {
    List<double[]> arenas = new ArrayList<>();
    List<MeshData> partitions = mesh.meshData("base");
    for (int p = 0; p < partitions.size(); p++) {
      double[] data = partitions.get(p).data();
      if (!containsArray(arenas, data)) {
        arenas.add(data);
      }
    }
    return arenas;
  }

  private static boolean containsArray(List<double[]> arrays, double[] array) {
    for (int i = 0; i < arrays.size(); i++) {
      if (arrays.get(i) == array) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected String stallDiagnostics() {
    return boundaries.describeChannels();
  }
}
