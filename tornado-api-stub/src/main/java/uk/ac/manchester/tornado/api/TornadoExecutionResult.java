package uk.ac.manchester.tornado.api;

/** Stand-in: what {@link TornadoExecutionPlan#execute()} returns. */
public class TornadoExecutionResult {
  TornadoExecutionResult() {
    throw Stub.called();
  }
}
