package org.metope.comm.mpj;

import java.io.PrintStream;
import mpi.MPI;
import org.metope.comm.CommAbortedException;
import org.metope.comm.Communicators;
import org.metope.comm.RankApplication;
import org.metope.comm.RankErrors;
import org.metope.comm.RankStatus;

/**
 * The class {@code mpjrun} starts on every rank. It initialises MPJ, installs the rank's world
 * communicator ({@link RankWorld}: under niodev an {@link MpjCommunicator}, under multicore by
 * default a rank of one in-JVM cluster shared by the ranks) as {@link Communicators#world()}, runs
 * the application class named by its first argument, and turns the outcome into an exit code the
 * launcher can see (see {@link RankStatus}):
 *
 * <pre>
 * mpjrun -np N -dev DEVICE -cp CLASSPATH org.metope.comm.MpjRankMain APP_CLASS APP_ARGS...
 * </pre>
 *
 * <p>The application class provides {@code public static int run(String[] args)} returning its
 * exit code (preferred), or a {@code main(String[])}. A {@code System.exit} inside it ends the
 * rank's JVM (under multicore, every rank's) before the rank can report; a shutdown hook then
 * records {@code ENDED} with exit code 1, which the launcher reports as a failure.
 *
 * <p><b>Outcomes.</b> Success: a final abortable barrier (so no rank reaches {@code MPI.Finalize},
 * which waits forever on a dead peer, unless all got there), status {@code OK}, {@code
 * MPI.Finalize} (bounded: the JVM is ended after {@value #FINALIZE_MILLIS} ms if it hangs).
 * Failure (an exception or a non-zero code): abort every other rank, write status {@code FAILED},
 * wait up to {@value #GRACE_MILLIS} ms for the others to record theirs, then {@code
 * System.exit(code)}: an unfinalised MPJ process would not end by itself, and under multicore the
 * exit ends the ranks' shared JVM only after they have reported. A rank stopped by another's abort
 * reports {@code ABORTED} with exit code {@value #ABORTED_EXIT_CODE}.
 *
 * <p><b>One line per failure.</b> Under the launcher (a status directory is set) the ranks do not
 * print their errors: the application's error stream is kept ({@link RankErrors}), a failing
 * rank's last error line becomes its status message, and the launcher prints the line of the rank
 * that failed first, once. Rank 0 passes warnings through as they come.
 */
public final class MpjRankMain {
  /** Exit code of a rank that stopped because another rank aborted the run. */
  public static final int ABORTED_EXIT_CODE = 1;

  private static final int FAILED_EXIT_CODE = 1;
  /** Exit code of a rank whose application class cannot be run, as for other usage errors. */
  private static final int USAGE_EXIT_CODE = 2;
  private static final long GRACE_MILLIS = 3000;
  private static final long FINALIZE_MILLIS = 10_000;

  private MpjRankMain() {}

  /**
   * Entry under {@code mpjrun}; {@code mpjArgs} are MPJ's {@code [rank, config, device]} followed
   * by the application class and its arguments.
   */
  public static void main(String[] mpjArgs) throws Exception {
    String device = mpjArgs.length > 2 ? deviceName(mpjArgs[2]) : "unknown device";
    String[] appArgs = MPI.Init(mpjArgs);
    RankWorld world = RankWorld.open(device);
    int rank = world.communicator().rank();
    RankStatus status = RankStatus.fromSystemProperty(rank, world.communicator().size());
    status.started();
    status.installExitHook();
    status.startHeartbeat(world.completedOperations());
    Communicators.install(world.communicator());

    int code;
    RankStatus.Outcome outcome;
    String message;
    RankErrors errors = status.enabled() ? new RankErrors(rank == 0 ? System.err : null) : null;
    PrintStream err = errors == null ? System.err : errors.stream();
    try {
      code = RankApplication.run(appArgs, MpjRankMain.class.getClassLoader(), System.out, err);
      outcome = code == 0 ? RankStatus.Outcome.OK : RankStatus.Outcome.FAILED;
      String line = errors == null ? null : errors.lastError();
      message = code == 0 ? "" : line != null ? line
          : "the application returned exit code " + code;
      if (code == 0) {
        world.finish().run();
      }
    } catch (RankApplication.ClassError e) {
      code = USAGE_EXIT_CODE;
      outcome = RankStatus.Outcome.FAILED;
      message = e.getMessage();
    } catch (CommAbortedException e) {
      boolean mine = e.originRank() == rank;
      code = mine ? FAILED_EXIT_CODE : ABORTED_EXIT_CODE;
      outcome = mine ? RankStatus.Outcome.FAILED : RankStatus.Outcome.ABORTED;
      message = e.getMessage();
    } catch (Throwable t) {
      code = FAILED_EXIT_CODE;
      outcome = RankStatus.Outcome.FAILED;
      message = t.toString();
      System.err.println("metope: rank " + rank + " failed with an unexpected error:");
      t.printStackTrace();
    }

    if (outcome == RankStatus.Outcome.OK) {
      status.finished(0, outcome, "");
      finalizeBounded(rank);
      return;
    }
    if (outcome == RankStatus.Outcome.FAILED) {
      world.abortQuietly().accept("rank " + rank + " failed: " + message);
    }
    if (!status.enabled()) {
      System.err.println("metope: rank " + rank + (outcome == RankStatus.Outcome.FAILED
          ? " failed" : " stopped") + ": " + message);
    }
    status.finished(code, outcome, message);
    status.awaitAllFinished(GRACE_MILLIS);
    System.exit(code);
  }

  private static String deviceName(String mpjDevice) {
    return mpjDevice.equals("smpdev") ? "multicore" : mpjDevice;
  }

  private static void finalizeBounded(int rank) throws InterruptedException {
    Thread finalizer = new Thread(() -> {
      try {
        MPI.Finalize();
      } catch (Exception e) {
        System.err.println("metope: rank " + rank + ": MPI.Finalize failed: " + e);
      }
    }, "metope-finalize-" + rank);
    finalizer.setDaemon(true);
    finalizer.start();
    finalizer.join(FINALIZE_MILLIS);
    if (finalizer.isAlive()) {
      System.err.println("metope: rank " + rank + ": MPI.Finalize did not return within "
          + FINALIZE_MILLIS + " ms; ending the process");
      System.exit(0);
    }
  }
}
