package uk.ac.manchester.tornado.api;

import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;

/** Stand-in: runs immutable task graphs. */
public class TornadoExecutionPlan implements AutoCloseable {
  /** Stand-in constructor. */
  public TornadoExecutionPlan(ImmutableTaskGraph... immutableTaskGraphs) {
    throw Stub.called();
  }

  /** Stand-in: runs the graphs. */
  public TornadoExecutionResult execute() {
    throw Stub.called();
  }

  /** Stand-in: device compiler options for one backend. */
  public TornadoExecutionPlan withGraph(int graphIndex) {
    throw Stub.called();
  }

  public TornadoExecutionPlan withCompilerFlags(TornadoVMBackendType backend,
      String compilerFlags) {
    throw Stub.called();
  }

  /** Stand-in: the worker grids of the tasks it names (global and local sizes). */
  public TornadoExecutionPlan withGridScheduler(GridScheduler gridScheduler) {
    throw Stub.called();
  }

  /** Stand-in: frees the plan's device memory. */
  @Override
  public void close() throws TornadoExecutionPlanException {
    throw Stub.called();
  }
}
