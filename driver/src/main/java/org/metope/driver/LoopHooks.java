package org.metope.driver;

import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.BlockCallback;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * The application's work around every step of an {@link EvolutionDriver} (Parthenon's in-loop
 * members of {@code ApplicationInput}), set by the application or the runner before {@link
 * EvolutionDriver#execute}. Unset hooks do nothing.
 *
 * <p>Per cycle, as Parthenon's {@code EvolutionDriver::Execute} orders them, with the clock not yet
 * advanced:
 *
 * <ol>
 *   <li>{@code PreStepMeshUserWorkInLoop};
 *   <li>{@code PreStepDiagnosticsInLoop}, by default every package's {@code PreStepDiagnostics}
 *       on every partition of {@code base} (partitions in order, packages in the order added);
 *   <li>the step;
 *   <li>{@code UserWorkInLoop} on every block of {@code base} (Parthenon's per-block {@code
 *       MeshBlock::UserWorkInLoop}, Athena++'s place for it: after the step);
 *   <li>{@code PostStepMeshUserWorkInLoop};
 *   <li>{@code PostStepDiagnosticsInLoop}, by default every package's {@code
 *       PostStepDiagnostics}.
 * </ol>
 *
 * <p>An application's diagnostics hook replaces the package default, as in Parthenon; it can call
 * {@link #packagePreStepDiagnostics} or {@link #packagePostStepDiagnostics} to keep it.
 */
public final class LoopHooks {
  private UserWorkInLoop preStepMeshUserWorkInLoop;
  private UserWorkInLoop postStepMeshUserWorkInLoop;
  private static final UserWorkInLoop DEFAULT_PRE = LoopHooks::packagePreStepDiagnostics;
  private static final UserWorkInLoop DEFAULT_POST = LoopHooks::packagePostStepDiagnostics;
  private UserWorkInLoop preStepDiagnosticsInLoop = DEFAULT_PRE;
  private UserWorkInLoop postStepDiagnosticsInLoop = DEFAULT_POST;
  private BlockCallback userWorkInLoop;

  /** Sets the work before each step. */
  public LoopHooks setPreStepMeshUserWorkInLoop(UserWorkInLoop work) {
    this.preStepMeshUserWorkInLoop = work;
    return this;
  }

  /** Sets the work after each step, after {@link #setUserWorkInLoop}'s. */
  public LoopHooks setPostStepMeshUserWorkInLoop(UserWorkInLoop work) {
    this.postStepMeshUserWorkInLoop = work;
    return this;
  }

  /** Replaces the packages' pre-step diagnostics. */
  public LoopHooks setPreStepDiagnosticsInLoop(UserWorkInLoop diagnostics) {
    this.preStepDiagnosticsInLoop = diagnostics;
    return this;
  }

  /** Replaces the packages' post-step diagnostics. */
  public LoopHooks setPostStepDiagnosticsInLoop(UserWorkInLoop diagnostics) {
    this.postStepDiagnosticsInLoop = diagnostics;
    return this;
  }

  /** Sets the per-block work after each step, on every block of {@code base}. */
  public LoopHooks setUserWorkInLoop(BlockCallback work) {
    this.userWorkInLoop = work;
    return this;
  }

  /** Every package's pre-step diagnostics on every partition of {@code base}. */
  public static void packagePreStepDiagnostics(Mesh mesh, ParameterInput pin, SimTime tm) {
    List<MeshData> parts = mesh.meshData("base");
    for (int p = 0; p < parts.size(); p++) {
      mesh.packages().preStepDiagnostics(tm, parts.get(p));
    }
  }

  /** Every package's post-step diagnostics on every partition of {@code base}. */
  public static void packagePostStepDiagnostics(Mesh mesh, ParameterInput pin, SimTime tm) {
    List<MeshData> parts = mesh.meshData("base");
    for (int p = 0; p < parts.size(); p++) {
      mesh.packages().postStepDiagnostics(tm, parts.get(p));
    }
  }

  /**
   * Whether the hooks may touch field values on {@code mesh}: some work is set, or some package
   * has step diagnostics that the default hooks run.
   */
  boolean touchFields(Mesh mesh) {
    if (preStepMeshUserWorkInLoop != null || postStepMeshUserWorkInLoop != null
        || userWorkInLoop != null) {
      return true;
    }
    boolean defaults = isDefault(preStepDiagnosticsInLoop, true)
        && isDefault(postStepDiagnosticsInLoop, false);
    if (!defaults) {
      return true;
    }
    // Asked every cycle: a loop, not a stream, which the interpreter runs many times slower.
    for (StateDescriptor p : mesh.packages().all()) {
      if (p.hasStepDiagnostics()) {
        return true;
      }
    }
    return false;
  }

  private static boolean isDefault(UserWorkInLoop work, boolean pre) {
    return work == null || work == (pre ? DEFAULT_PRE : DEFAULT_POST);
  }

  /** Items 1 and 2 of the cycle. */
  void beforeStep(Mesh mesh, ParameterInput pin, SimTime tm) {
    run(preStepMeshUserWorkInLoop, mesh, pin, tm);
    run(preStepDiagnosticsInLoop, mesh, pin, tm);
  }

  /** Items 4 to 6 of the cycle. */
  void afterStep(Mesh mesh, ParameterInput pin, SimTime tm) {
    if (userWorkInLoop != null) {
      for (MeshData md : mesh.meshData("base")) {
        for (int b = 0; b < md.numBlocks(); b++) {
          userWorkInLoop.apply(md, b);
        }
      }
    }
    run(postStepMeshUserWorkInLoop, mesh, pin, tm);
    run(postStepDiagnosticsInLoop, mesh, pin, tm);
  }

  private static void run(UserWorkInLoop work, Mesh mesh, ParameterInput pin, SimTime tm) {
    if (work != null) {
      work.apply(mesh, pin, tm);
    }
  }
}
