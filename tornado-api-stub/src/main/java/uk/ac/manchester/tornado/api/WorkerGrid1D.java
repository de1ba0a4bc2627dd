package uk.ac.manchester.tornado.api;

/** Stand-in: a 1-dimensional worker grid. */
public class WorkerGrid1D implements WorkerGrid {
  /** Stand-in constructor. */
  public WorkerGrid1D(int x) {
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
