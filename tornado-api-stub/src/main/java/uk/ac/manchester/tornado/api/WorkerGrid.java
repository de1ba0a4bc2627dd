package uk.ac.manchester.tornado.api;

/** Stand-in: the global and local sizes of one task's launch. */
public interface WorkerGrid {
  /** Stand-in: the global size in each dimension. */
  void setGlobalWork(long x, long y, long z);

  /** Stand-in: lets the driver choose the local size. */
  void setLocalWorkToNull();
}
