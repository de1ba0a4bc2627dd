package uk.ac.manchester.tornado.api;

/** The one failure every stand-in method raises. */
final class Stub {
  private Stub() {}

  static UnsupportedOperationException called() {
    return new UnsupportedOperationException("tornado-api-stub is compile-only: run with"
        + " TornadoVM's tornado-api on the class path");
  }
}
