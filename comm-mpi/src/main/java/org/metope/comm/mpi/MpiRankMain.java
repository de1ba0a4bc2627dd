package org.metope.comm.mpi;

import org.metope.comm.CommAbortedException;
import org.metope.comm.Communicators;
import org.metope.comm.RankApplication;
import org.metope.comm.RankErrors;

/**
 * The class each rank's JVM runs under {@code mpirun} or {@code srun} (the {@code ./metope}
 * launcher starts it; docs/CLUSTER.md, "Real MPI"):
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... org.metope.comm.mpi.MpiRankMain APP_CLASS ARGS...
 * </pre>
 *
 * <p>It loads Open MPI's library, initialises MPI, installs the rank's world ({@link
 * MpiCommunicator}) as {@link Communicators#world()}, runs the application class ({@link
 * RankApplication}) and turns the outcome into the job's end. Success: a final barrier (so no
 * rank finalises while another may still fail), {@code MPI_Finalize}, exit code 0. Failure (an
 * exception, a non-zero exit code, an abort): the failure is printed once, on rank 0, as {@code
 * metope: rank R failed (exit CODE): LINE}, and {@code MPI_Abort} ends every rank with that code
 * ({@link MpiFailures}).
 *
 * <p>MPI is asked for {@code MPI_THREAD_MULTIPLE}, so that task threads post and complete their
 * own messages; {@code -D}{@value #THREADS_PROPERTY}{@code =serialized} asks for {@code
 * MPI_THREAD_SERIALIZED} instead, and the device serialises its calls with one lock (for MPI
 * libraries whose multiple-thread mode is slow or missing).
 *
 * <p>The application's error stream is kept ({@link RankErrors}): a failing rank's last error
 * line becomes its report, so N ranks failing alike print one line, not N; rank 0 passes warnings
 * through as they come. An unexpected exception (a bug) also prints its stack trace on its rank.
 * Before MPI is initialised (no library), only the rank the launcher numbers 0 prints the reason.
 */
public final class MpiRankMain {
  private static final int FAILED_EXIT_CODE = 1;
  private static final int USAGE_EXIT_CODE = 2;
  /** The system property naming the thread level asked of MPI: multiple or serialized. */
  static final String THREADS_PROPERTY = "metope.mpi.threads";
  /** Variables in which mpirun (Open MPI), srun with PMIx, or Slurm number the ranks. */
  private static final String[] RANK_VARIABLES = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
      "SLURM_PROCID"};

  private MpiRankMain() {}

  /** Entry of every rank; {@code args} are the application class and its arguments. */
  public static void main(String[] args) {
    String threads = System.getProperty(THREADS_PROPERTY, "multiple");
    if (!threads.equals("multiple") && !threads.equals("serialized")) {
      if (numberedZero()) {
        System.err.println("metope: -D" + THREADS_PROPERTY + " = \"" + threads
            + "\": expected multiple or serialized");
      }
      System.exit(USAGE_EXIT_CODE);
    }
    MpiLibrary mpi;
    try {
      mpi = MpiLibrary.load();
    } catch (MpiLibrary.Unavailable e) {
      if (numberedZero()) {
        System.err.println("metope: " + e.getMessage());
      }
      System.exit(USAGE_EXIT_CODE);
      return;
    }
    MpiWorld world;
    try {
      world = MpiWorld.init(mpi, threads.equals("serialized") ? MpiLibrary.THREAD_SERIALIZED
          : MpiLibrary.THREAD_MULTIPLE);
    } catch (IllegalStateException e) {
      if (numberedZero()) {
        System.err.println("metope: " + e.getMessage());
      }
      mpi.abort(mpi.commWorld, USAGE_EXIT_CODE);
      return;
    }
    MpiFailures failures = MpiFailures.open(world, System.err);
    MpiCommunicator communicator = new MpiCommunicator(world, world.duplicate(mpi.commWorld));
    Communicators.install(communicator);
    int rank = world.rank();

    RankErrors errors = new RankErrors(rank == 0 ? System.err : null);
    int code;
    String message;
    try {
      code = RankApplication.run(args, MpiRankMain.class.getClassLoader(), System.out,
          errors.stream());
      String line = errors.lastError();
      message = code == 0 ? "" : line != null ? line
          : "the application returned exit code " + code;
    } catch (RankApplication.ClassError e) {
      code = USAGE_EXIT_CODE;
      message = e.getMessage();
    } catch (CommAbortedException e) {
      code = FAILED_EXIT_CODE;
      message = e.getMessage();
    } catch (Throwable t) {
      code = FAILED_EXIT_CODE;
      message = t.toString();
      System.err.println("metope: rank " + rank + " failed with an unexpected error:");
      t.printStackTrace();
    }
    if (code != 0) {
      failures.fail(code, message);
    }
    try {
      communicator.barrier();
    } catch (CommAbortedException e) {
      failures.fail(FAILED_EXIT_CODE, e.getMessage());
    }
    failures.close();
    mpi.check(mpi.finalizeMpi(), "MPI_Finalize");
    System.exit(0);
  }

  /** True unless a launcher's variable numbers this process other than 0. */
  private static boolean numberedZero() {
    for (String variable : RANK_VARIABLES) {
      String value = System.getenv(variable);
      if (value != null && !value.isBlank()) {
        return value.strip().equals("0");
      }
    }
    return true;
  }
}
