package org.metope.comm;

/**
 * The world communicator of this rank. Under MPJ Express the MPJ entry ({@code MpjRankMain})
 * installs an MPJ communicator before the application starts; otherwise the first call creates a
 * single in-process rank, so a deck runs without MPJ.
 *
 * <p>Under MPJ's multicore device every rank is a thread of one JVM with its own class loader, so
 * this class's static state is per rank there, as it is per process under niodev.
 */
public final class Communicators {
  private static Communicator world;

  private Communicators() {}

  /** This rank's world communicator; a single in-process rank when none was installed. */
  public static synchronized Communicator world() {
    if (world == null) {
      world = InProcessCluster.singleRank();
    }
    return world;
  }

  /**
   * Makes {@code communicator} the world of this rank; called once, by the MPJ entry, before the
   * application runs.
   *
   * @throws IllegalStateException when a world is already in use
   */
  public static synchronized void install(Communicator communicator) {
    CommArguments.checkNotNull(communicator, "communicator");
    if (world != null) {
      throw new IllegalStateException("a world communicator is already in use: world="
          + world.describe() + ", new=" + communicator.describe());
    }
    world = communicator;
  }
}
