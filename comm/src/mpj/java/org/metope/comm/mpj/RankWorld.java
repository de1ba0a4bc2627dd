package org.metope.comm.mpj;

import java.util.function.Consumer;
import java.util.function.LongSupplier;
import mpi.MPI;
import mpi.MPIException;
import org.metope.comm.Communicator;
import org.metope.comm.SharedMemoryRank;

/**
 * The world of one rank as {@link MpjRankMain} drives it: the communicator, its progress count for
 * the heartbeat, the final barrier before {@code MPI.Finalize}, and an abort that does not throw.
 *
 * <p><b>Two transports.</b> niodev ranks are processes, and their messages go through MPJ ({@link
 * MpjCommunicator}). Multicore ranks are threads of one JVM that share Metope's classes (the
 * launcher's agent, {@code share=}), so by default their messages, collectives, duplicates and
 * aborts go through one {@link SharedMemoryRank} cluster of the run and MPJ only starts and ends
 * them: MPJ's multicore device matches every message under one JVM-wide lock, packs it into its
 * own buffers, and is polled, which cost the ranks most on crowded cores.
 * {@value #TRANSPORT_PROPERTY}{@code =mpj} (the launcher's {@code METOPE_MPJ_TRANSPORT=mpj}) keeps
 * multicore ranks on MPJ's messages, and so does a run whose ranks do not share Metope's classes
 * ({@code mpjrun} without the launcher): their registries would never meet.
 */
record RankWorld(Communicator communicator, LongSupplier completedOperations, Runnable finish,
    Consumer<String> abortQuietly) {
  /** System property naming the multicore transport: {@code shared} (default) or {@code mpj}. */
  static final String TRANSPORT_PROPERTY = "metope.mpj.transport";

  /**
   * The world of this rank, after {@code MPI.Init}; {@code device} as the launcher names it. Under
   * in-JVM messages rank 0 draws the run's number and broadcasts it through MPJ (the one message
   * MPJ carries), so the ranks of this run, and of no other, meet.
   */
  static RankWorld open(String device) throws MPIException {
    if (device.equals("multicore") && inJvmMessages()) {
      long[] run = {SharedMemoryRank.newRun()};
      MPI.COMM_WORLD.Bcast(run, 0, 1, MPI.LONG, 0);
      SharedMemoryRank rank = SharedMemoryRank.join(run[0], MPI.COMM_WORLD.Rank(),
          MPI.COMM_WORLD.Size(), "MPJ Express multicore");
      return new RankWorld(rank.world(), rank::completedOperations, rank::finish,
          rank::abortQuietly);
    }
    MpjCommunicator world = MpjCommunicator.createWorld(device);
    return new RankWorld(world, world::completedOperations, world::finish, world::abortQuietly);
  }

  /**
   * True unless the MPJ transport was asked for, or Metope's API is loaded per rank (with this
   * backend) rather than once for every rank.
   */
  private static boolean inJvmMessages() {
    return !"mpj".equals(System.getProperty(TRANSPORT_PROPERTY))
        && Communicator.class.getClassLoader() != RankWorld.class.getClassLoader();
  }
}
