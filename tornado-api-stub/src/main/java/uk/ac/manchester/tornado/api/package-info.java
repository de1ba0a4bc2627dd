/**
 * Compile-only stand-ins for the TornadoVM API classes that Metope's TornadoVM backend names
 * (signatures as in beehive-lab/TornadoVM's {@code tornado-api}, Apache License 2.0). kernels-tornado
 * compiles against them with {@code provided} scope in the default build and against the real
 * {@code tornado-api} jar under {@code -Ptornado}; they never reach a run-time class path, and every
 * method throws {@link UnsupportedOperationException} should one be called by mistake.
 */
package uk.ac.manchester.tornado.api;
