package uk.ac.manchester.tornado.api;

/** Stand-in: a task graph frozen by {@link TaskGraph#snapshot()}. */
public class ImmutableTaskGraph {
  ImmutableTaskGraph() {
    throw Stub.called();
  }
}
