package uk.ac.manchester.tornado.api;

/** Stand-in: a 2-dimensional worker grid. */
public class WorkerGrid2D implements WorkerGrid {
  /** Stand-in constructor. */
  public WorkerGrid2D(int x, int y) {
    throw Stub.called();
  }

  @Override
  public void setGlobalWork(long x, long y, long z) {
    throw Stub.called();
  }

  @Override
  public void setLocalWorkToNull() {
    throw Stub.called();
  }
}
