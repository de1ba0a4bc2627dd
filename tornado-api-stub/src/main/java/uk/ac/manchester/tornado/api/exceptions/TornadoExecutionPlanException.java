package uk.ac.manchester.tornado.api.exceptions;

/** Stand-in: raised when closing an execution plan fails. */
public class TornadoExecutionPlanException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Stand-in constructor. */
  public TornadoExecutionPlanException(String reason) {
    super(reason);
  }
}
