package org.metope.comm;

import java.time.Duration;

/**
 * Runs {@link CommunicatorContract} on this rank's world communicator, and stages failures to test
 * the abort protocol. Under MPJ it is started by the launcher:
 *
 * <pre>
 * ./metope -np 3 --dev niodev --class org.metope.comm.CommunicatorSelfTest
 * ./metope -np 2 --dev multicore --class org.metope.comm.CommunicatorSelfTest --throw-on-rank 1
 * </pre>
 *
 * <p>Options (one at most): {@code --throw-on-rank R} (rank R throws while the others wait for its
 * message), {@code --abort-on-rank R} (rank R calls {@link Communicator#abort}), {@code
 * --exit-on-rank R} (rank R calls {@code System.exit(3)}, a process that vanishes), {@code
 * --stall-collective-on-rank R} (the others wait in an allgather that rank R never joins, with a
 * stall timeout of 2 s) and {@code --hang} (every rank waits for a message nobody sends, for the
 * launcher's stall watchdog).
 */
public final class CommunicatorSelfTest {
  private static final int NEVER_SENT_TAG = 99;
  private static final int STAGED_EXIT_CODE = 3;
  private static final Duration STAGED_STALL = Duration.ofSeconds(2);

  private CommunicatorSelfTest() {}

  /** Entry without MPJ: one in-process rank. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /**
   * Runs the contract, then the staged failure if one was asked for; returns the exit code (0 when
   * every check passed). Check failures propagate as {@link AssertionError}.
   */
  public static int run(String[] args) {
    Communicator world = Communicators.world();
    String mode = args.length == 0 ? "" : args[0];
    int stagedRank = args.length > 1 ? Integer.parseInt(args[1]) : -1;
    if (!mode.isEmpty() && !mode.equals("--hang") && stagedRank < 0) {
      System.err.println("selftest: " + mode + " needs a rank");
      return 2;
    }
    int passed = 0;
    for (CommunicatorContract.Check check : CommunicatorContract.checks()) {
      check.body().accept(world);
      world.barrier();
      passed++;
    }
    if (world.rank() == 0) {
      System.out.println("communicator contract: " + passed + " checks passed on "
          + world.describe());
    }
    if (!mode.isEmpty()) {
      stageFailure(world, mode, stagedRank);
    }
    return 0;
  }

  private static void stageFailure(Communicator world, String mode, int stagedRank) {
    world.barrier();
    if (mode.equals("--hang")) {
      waitForNeverSentMessage(world, (world.rank() + 1) % world.size());
      return;
    }
    if (mode.equals("--stall-collective-on-rank")) {
      world.setStallTimeout(STAGED_STALL);
      if (world.rank() == stagedRank) {
        waitForNeverSentMessage(world, (stagedRank + 1) % world.size());
      }
      world.allgather(new double[] {world.rank()});
      throw new IllegalStateException("an allgather without rank " + stagedRank + " completed");
    }
    if (world.rank() != stagedRank) {
      waitForNeverSentMessage(world, stagedRank);
      return;
    }
    switch (mode) {
      case "--throw-on-rank" -> throw new IllegalStateException("staged failure on rank "
          + stagedRank + " (--throw-on-rank)");
      case "--abort-on-rank" -> world.abort("staged abort on rank " + stagedRank
          + " (--abort-on-rank)");
      case "--exit-on-rank" -> {
        System.out.println("selftest: rank " + stagedRank + " calls System.exit("
            + STAGED_EXIT_CODE + ")");
        System.exit(STAGED_EXIT_CODE);
      }
      default -> throw new IllegalArgumentException("unknown selftest option: option=" + mode);
    }
  }

  private static void waitForNeverSentMessage(Communicator world, int peer) {
    double[] buffer = new double[1];
    world.irecv(buffer, 0, 1, peer, NEVER_SENT_TAG).waitFor();
    throw new IllegalStateException("a message nobody sent arrived: peer=" + peer);
  }
}
