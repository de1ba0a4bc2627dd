package uk.ac.manchester.tornado.api;

/** Stand-in: worker grids by task name ("graph.task"). */
public class GridScheduler {
  /** Stand-in constructor. */
  public GridScheduler() {
    throw Stub.called();
  }

  /** Stand-in: the grid of task {@code taskName}. */
  public void addWorkerGrid(String taskName, WorkerGrid workerGrid) {
    throw Stub.called();
  }
}
