package uk.ac.manchester.tornado.api;

/** Stand-in: a 3-dimensional worker grid. */
public class WorkerGrid3D implements WorkerGrid {
  /** Stand-in constructor. */
  public WorkerGrid3D(int x, int y, int z) {
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
