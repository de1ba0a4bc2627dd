package org.metope.driver;

import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;

/**
 * Application work on the whole mesh of a rank at a fixed point of every cycle (Parthenon's {@code
 * PreStepMeshUserWorkInLoop}, {@code PostStepMeshUserWorkInLoop}, {@code PreStepDiagnosticsInLoop}
 * and {@code PostStepDiagnosticsInLoop} of {@code ApplicationInput}); see {@link LoopHooks}.
 */
@FunctionalInterface
public interface UserWorkInLoop {
  /** Does the work; {@code tm} has not advanced over the cycle's step yet. */
  void apply(Mesh mesh, ParameterInput pin, SimTime tm);
}
