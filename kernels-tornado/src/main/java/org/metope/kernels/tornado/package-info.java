/**
 * The TornadoVM backend: the only package of Metope that needs TornadoVM. {@link
 * org.metope.kernels.tornado.TornadoKernelBackend} and {@link
 * org.metope.kernels.tornado.ResidentPlan} call TornadoVM's API at run time and are loaded by name
 * only ({@code KernelBackends}); the rest is their launch logic (what crosses to the device and
 * when, residency, launch tables, the {@code @Parallel} launchers), which the tests' emulated
 * device ({@code EmulatedDeviceBackend}, test jar) runs on a plain JVM.
 */
package org.metope.kernels.tornado;
