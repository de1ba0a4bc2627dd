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
 * <p>The rank's threads sleep with a timer slack of 1 us instead of Linux's 50 us ({@link
 * TimerSlack}), so a rank parked between polls wakes near when it asked to.
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
    int threadLevel = threadLevel();
    MpiLibrary mpi = loadLibrary();
    MpiWorld world = initialise(mpi, threadLevel);
    MpiFailures failures = MpiFailures.open(world, System.err);
    MpiCommunicator communicator = new MpiCommunicator(world, world.duplicate(mpi.commWorld));
    Communicators.install(communicator);
    TimerSlack.set(TimerSlack.RANK_NANOS);
    Outcome outcome = runApplication(args, world.rank());
    if (outcome.code() != 0) {
      failures.fail(outcome.code(), outcome.message());
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

  /** How the application ended on this rank: its exit code and, when not 0, one line why. */
  private record Outcome(int code, String message) {}

  /** The thread level {@value #THREADS_PROPERTY} asks for; a bad value ends the rank. */
  private static int threadLevel() {
    String threads = System.getProperty(THREADS_PROPERTY, "multiple");
    if (threads.equals("multiple")) {
      return MpiLibrary.THREAD_MULTIPLE;
    }
    if (threads.equals("serialized")) {
      return MpiLibrary.THREAD_SERIALIZED;
    }
    exitBeforeMpi("-D" + THREADS_PROPERTY + " = \"" + threads
        + "\": expected multiple or serialized");
    return -1;
  }

  private static MpiLibrary loadLibrary() {
    try {
      return MpiLibrary.load();
    } catch (MpiLibrary.Unavailable e) {
      exitBeforeMpi(e.getMessage());
      return null;
    }
  }

  /** Initialises MPI; a thread level MPI cannot give ends the job with one line. */
  private static MpiWorld initialise(MpiLibrary mpi, int threadLevel) {
    try {
      return MpiWorld.init(mpi, threadLevel);
    } catch (IllegalStateException e) {
      if (numberedZero()) {
        System.err.println("metope: " + e.getMessage());
      }
      mpi.abort(mpi.commWorld, USAGE_EXIT_CODE);
      throw e;
    }
  }

  /** Prints {@code reason} on the rank numbered 0 only and ends this process with exit code 2. */
  private static void exitBeforeMpi(String reason) {
    if (numberedZero()) {
      System.err.println("metope: " + reason);
    }
    System.exit(USAGE_EXIT_CODE);
  }

  /**
   * Runs the application with its error stream kept ({@link RankErrors}; warnings pass through on
   * rank 0) and says how it ended; an unexpected exception also prints its stack trace here.
   */
  private static Outcome runApplication(String[] args, int rank) {
    RankErrors errors = new RankErrors(rank == 0 ? System.err : null);
    try {
      int code = RankApplication.run(args, MpiRankMain.class.getClassLoader(), System.out,
          errors.stream());
      String line = errors.lastError();
      return new Outcome(code, code == 0 ? "" : line != null ? line
          : "the application returned exit code " + code);
    } catch (RankApplication.ClassError e) {
      return new Outcome(USAGE_EXIT_CODE, e.getMessage());
    } catch (CommAbortedException e) {
      return new Outcome(FAILED_EXIT_CODE, e.getMessage());
    } catch (Throwable t) {
      System.err.println("metope: rank " + rank + " failed with an unexpected error:");
      t.printStackTrace();
      return new Outcome(FAILED_EXIT_CODE, t.toString());
    }
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
