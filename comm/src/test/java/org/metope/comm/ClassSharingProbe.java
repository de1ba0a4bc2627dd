package org.metope.comm;

import java.io.PrintStream;

/**
 * Prints, for its rank, which class loader defined Metope's communicator API and which defined the
 * rank's MPJ entry (the MPJ backend, found on the calling stack), with their identities, so a test
 * can see whether the ranks of one JVM share Metope's classes (MPJ multicore with the launcher's
 * agent) while each keeps its own MPJ backend:
 *
 * <pre>
 * ./metope -np 2 --class org.metope.comm.ClassSharingProbe
 * rank 0 api=app@1b6d3586 backend=java.net.URLClassLoader@4554617c
 * </pre>
 */
public final class ClassSharingProbe {
  private ClassSharingProbe() {}

  /** Prints this rank's line; returns 0. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Communicator world = Communicators.world();
    Class<?> backend = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
            .filter(c -> c.getName().startsWith("org.metope.comm.mpj.")).findFirst())
        .orElse(null);
    String line = "rank " + world.rank() + " api=" + describe(Communicator.class.getClassLoader())
        + " backend=" + (backend == null ? "none" : describe(backend.getClassLoader()));
    out.println(line);
    world.barrier();
    return 0;
  }

  private static String describe(ClassLoader loader) {
    String name = loader == null ? "boot" : loader.getName() != null ? loader.getName()
        : loader.getClass().getName();
    return name + "@" + Integer.toHexString(System.identityHashCode(loader));
  }
}
