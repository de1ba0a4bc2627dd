package org.metope.kernels;

import java.lang.reflect.InvocationTargetException;

/**
 * Creates the backend a deck or the command line asks for ({@code <parthenon/kernels> backend =
 * jvm|tornado}, {@code threads = N}). The TornadoVM backend is compiled into every build (against a
 * compile-only stub of TornadoVM's API) but needs TornadoVM's API at run time, so it is looked up by
 * name; asking for it where TornadoVM is absent is a one-sentence error that the caller can prefix
 * with the deck location.
 */
public final class KernelBackends {
  /** The backend used when the deck names none. */
  public static final String DEFAULT = "jvm";
  /** Class of the TornadoVM backend; it runs only where TornadoVM's API classes are present. */
  static final String TORNADO_CLASS = "org.metope.kernels.tornado.TornadoKernelBackend";

  private KernelBackends() {}

  /**
   * Creates backend {@code name}.
   *
   * @param name {@code jvm} or {@code tornado}
   * @param threads host threads for {@code jvm} (0 means one per available processor); ignored by
   *     {@code tornado}
   * @throws IllegalArgumentException with one sentence for an unknown name, a negative thread
   *     count, or {@code tornado} where TornadoVM is not available (then an {@link Unavailable})
   */
  public static KernelBackend create(String name, int threads) {
    return create(name, threads, false);
  }

  /**
   * Creates backend {@code name}, device resident when {@code resident} (only {@code tornado}
   * can be).
   *
   * @throws IllegalArgumentException as {@link #create(String, int)}, and for a resident {@code
   *     jvm}
   */
  public static KernelBackend create(String name, int threads, boolean resident) {
    if (resident && !"tornado".equals(name)) {
      throw new IllegalArgumentException("resident = true needs a device backend (backend ="
          + " tornado), got backend " + name);
    }
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be 0 (all processors) or more, got "
          + threads);
    }
    if ("jvm".equals(name)) {
      return new JvmKernelBackend(threads == 0 ? Runtime.getRuntime().availableProcessors()
          : threads);
    }
    if ("tornado".equals(name)) {
      return createTornado(resident);
    }
    throw new IllegalArgumentException("unknown kernel backend '" + name
        + "', expected jvm or tornado");
  }

  /**
   * {@code tornado} asked for where this build or this JVM has no TornadoVM, told apart from a
   * backend that failed to start so that a caller can phrase it as the setting to use instead.
   */
  public static final class Unavailable extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message);
    }
  }

  /** Whether this build and this JVM can run the TornadoVM backend. */
  public static boolean tornadoAvailable() {
    try {
      Class.forName(TORNADO_CLASS, false, KernelBackends.class.getClassLoader());
      Class.forName("uk.ac.manchester.tornado.api.TaskGraph", false,
          KernelBackends.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static KernelBackend createTornado(boolean resident) {
    if (!tornadoAvailable()) {
      throw new Unavailable("kernel backend 'tornado' is not available: run on"
          + " TornadoVM's JVM (see docs/TORNADOVM.md), or use jvm");
    }
    try {
      return (KernelBackend) Class.forName(TORNADO_CLASS).getConstructor(boolean.class)
          .newInstance(resident);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("kernel backend 'tornado' failed to start: "
          + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalArgumentException("kernel backend 'tornado' failed to start: " + e, e);
    }
  }
}
