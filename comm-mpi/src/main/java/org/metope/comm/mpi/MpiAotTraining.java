package org.metope.comm.mpi;

import java.lang.invoke.MethodHandles;
import org.metope.comm.RankApplication;

/**
 * The entry of the training run of the mpi device's ahead-of-time cache (launcher/aot.sh, JDK 25):
 * it links the device's downcall handles, as every rank does at start-up, then runs the
 * application class it is given (the launcher's training class) in the same JVM, so that the cache
 * also holds the classes of the Foreign Function and Memory API's linker. It starts no MPI and
 * needs no MPI library.
 */
public final class MpiAotTraining {
  private MpiAotTraining() {}

  /** {@code args} are the training class and its arguments, as for {@link MpiRankMain}. */
  public static void main(String[] args) throws Throwable {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    lookup.ensureInitialized(MpiLibrary.class);
    lookup.ensureInitialized(MpiCollectiveCalls.class);
    lookup.ensureInitialized(TimerSlack.class);
    System.exit(RankApplication.run(args, MpiAotTraining.class.getClassLoader(), System.out,
        System.err));
  }
}
