package org.metope.mesh.field;

import org.metope.mesh.SimTime;

/**
 * A package's diagnostics before or after a step (Parthenon's {@code PreStepDiagnosticsMesh} and
 * {@code PostStepDiagnosticsMesh}), called by the evolution driver on every partition of the
 * {@code base} container, packages in the order added. Diagnostics read fields; they must not
 * change them, so that a run gives the same bits with or without them.
 */
@FunctionalInterface
public interface StepDiagnostics {
  /**
   * Looks at partition {@code md}; {@code tm} has not advanced yet, before the step and after it
   * (time and cycle of the step's start, {@code dt} the step), as in Parthenon.
   */
  void apply(SimTime tm, MeshData md);
}
