package org.metope.bvals;

import java.util.List;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.input.ParameterInput;

/**
 * The kernel backend a deck's {@code <parthenon/kernels>} block asks for: {@code backend = jvm |
 * tornado}, {@code threads} (0 = every processor) and {@code resident} (tornado only). A backend
 * that cannot start here is a deck error, not a stack trace.
 */
final class KernelBackendChoice {
  /** More kernel threads than this is a typo, not a machine. */
  private static final int MAX_KERNEL_THREADS = 1024;

  private KernelBackendChoice() {}

  /** The backend {@code pin} asks for, started. */
  static KernelBackend fromInput(ParameterInput pin) {
    String name = pin.getOrAddString("parthenon/kernels", "backend", KernelBackends.DEFAULT,
        List.of("jvm", "tornado"));
    int threads = pin.getOrAddInteger("parthenon/kernels", "threads", 1);
    if (threads < 0 || threads > MAX_KERNEL_THREADS) {
      throw pin.error("parthenon/kernels", "threads", "an integer from 0 (all processors) to "
          + MAX_KERNEL_THREADS);
    }
    boolean resident = pin.getOrAddBoolean("parthenon/kernels", "resident", false);
    if (resident && !"tornado".equals(name)) {
      throw pin.error("parthenon/kernels", "resident", "false unless backend = tornado (only a"
          + " device backend keeps the fields on its device)");
    }
    try {
      return KernelBackends.create(name, threads, resident);
    } catch (KernelBackends.Unavailable e) {
      throw pin.error("parthenon/kernels", "backend", "jvm, since this JVM has no TornadoVM"
          + " (tornado runs on TornadoVM's JVM: see docs/TORNADOVM.md)");
    } catch (IllegalArgumentException e) {
      throw pin.error("parthenon/kernels", "backend", "a backend that starts here ("
          + e.getMessage() + ")");
    }
  }
}
