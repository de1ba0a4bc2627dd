package org.metope.comm;

/**
 * The world communicator of this rank. Under MPJ Express the MPJ entry ({@code MpjRankMain})
 * installs the rank's world on the rank's thread before the application starts (an MPJ
 * communicator under niodev, a rank of the run's {@link SharedMemoryRank} cluster under
 * multicore); otherwise the first call creates a single in-process rank, so a deck runs without
 * MPJ.
 *
 * <p>The world belongs to the thread that installed it and to the threads it starts afterwards:
 * under MPJ's multicore device every rank is a thread of one JVM, and the launcher has the ranks
 * share Metope's classes (so the JIT compiles each method once, not once per rank), so a static
 * field here would be one world for all ranks. Under niodev each rank is a process of its own.
 */
public final class Communicators {
  /** The world installed by this thread, or by the thread that started it. */
  private static final InheritableThreadLocal<Communicator> INSTALLED =
      new InheritableThreadLocal<>();
  /** The world of threads that have none installed: one in-process rank, made on first use. */
  private static Communicator singleRank;

  private Communicators() {}

  /**
   * This rank's world communicator; a single in-process rank when none was installed, which is
   * then this thread's world for good.
   */
  public static Communicator world() {
    Communicator installed = INSTALLED.get();
    if (installed == null) {
      installed = singleRank();
      INSTALLED.set(installed);
    }
    return installed;
  }

  private static synchronized Communicator singleRank() {
    if (singleRank == null) {
      singleRank = InProcessCluster.singleRank();
    }
    return singleRank;
  }

  /**
   * Makes {@code communicator} the world of this thread and of the threads it starts from now on;
   * called once per rank, by the MPJ entry, before the application runs.
   *
   * @throws IllegalStateException when this thread already has a world (installed, inherited or
   *     in use)
   */
  public static void install(Communicator communicator) {
    CommArguments.checkNotNull(communicator, "communicator");
    Communicator installed = INSTALLED.get();
    if (installed != null) {
      throw new IllegalStateException("a world communicator is already in use: world="
          + installed.describe() + ", new=" + communicator.describe());
    }
    INSTALLED.set(communicator);
  }
}
