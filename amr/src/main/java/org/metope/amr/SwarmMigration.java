package org.metope.amr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.Request;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmStorage;
import org.metope.mesh.forest.LogicalLocation;

/**
 * Moves every swarm's particles from the blocks before a remesh to the blocks after it, along the
 * transfers of a {@link RemeshPlan}, beside {@link BlockMigration} (Parthenon does not move
 * particles through a remesh; this is Metope's own): a kept block's particles go to its new
 * place, a refined block's particles go to the child whose octant holds their position, and a
 * merged block's children's particles go to the parent.
 *
 * <p>{@link #pack}, on the old swarms: per destination rank, the transfers from this rank in plan
 * order, each as one record per swarm, {@code [count, then per particle its real components and
 * its integer components]} (integers are exact in a double). {@link #deliver}, on the new, empty
 * swarms: each rank first sends every destination its message's length (tag 1), then the message
 * (tag 2), and adds the records of every transfer to it in plan order. Plan order is new gid
 * ascending, and a merged block's children in Morton order, whatever the ranks; a new pool hands
 * out its slots in the order particles are added. So every new block holds its particles in the
 * same slots on any number of ranks.
 *
 * <p>A refined block's particle goes to child bit {@code x >= mid} on each active axis, {@code
 * mid} being the first child's upper bound: every particle of the parent lands in exactly one
 * child, as the half-open bounds of {@code SwarmExchange} place it.
 */
final class SwarmMigration {
  /** Tag of the length messages, on the remesh communicator (fields use tag 0). */
  static final int LENGTH_TAG = 1;
  /** Tag of the particle messages. */
  static final int DATA_TAG = 2;

  private final Communicator comm;
  private final Mesh mesh;
  private double[][] outboxes = new double[0][];
  private int[] outLengths = new int[0];
  private long moved;

  /**
   * @param comm the remesh's own communicator (the one {@link BlockMigration} uses)
   * @param mesh the mesh whose swarms move (read for geometry and storage)
   */
  SwarmMigration(Communicator comm, Mesh mesh) {
    this.comm = comm;
    this.mesh = mesh;
  }

  /** Particles this rank has packed in every remesh so far (its own kept blocks included). */
  long particlesMoved() {
    return moved;
  }

  /** Packs every transfer leaving this rank from {@code from}, the swarms of the old blocks. */
  void pack(RemeshPlan plan, SwarmStorage from) {
    int me = comm.rank();
    int nranks = comm.size();
    if (outboxes.length != nranks) {
      outboxes = new double[nranks][];
      outLengths = new int[nranks];
    }
    Arrays.fill(outLengths, -1);
    int oldFirst = plan.oldDistribution().firstGid(me);
    for (RemeshPlan.Transfer t : plan.transfers(comm.rank())) {
      if (t.fromRank() != me) {
        continue;
      }
      int peer = t.toRank();
      int pos = Math.max(outLengths[peer], 0);
      for (int s = 0; s < from.layouts().size(); s++) {
        Swarm swarm = from.swarm(t.oldGid() - oldFirst, s);
        pos = packRecord(plan, t, swarm, peer, pos);
      }
      outLengths[peer] = pos;
    }
  }

  private int packRecord(RemeshPlan plan, RemeshPlan.Transfer t, Swarm swarm, int peer,
      int pos) {
    SwarmLayout layout = swarm.layout();
    int width = layout.realComponents() + layout.integerComponents();
    double[] mid = t.kind() == RemeshPlan.Kind.REFINED
        ? midpoints(plan.oldLocations().get(t.oldGid())) : null;
    outboxes[peer] = grow(outboxes[peer], pos + 1 + (long) swarm.numActive() * width);
    double[] out = outboxes[peer];
    int countAt = pos++;
    int count = 0;
    for (int n = 0; n <= swarm.maxActiveIndex(); n++) {
      if (!swarm.isActive(n) || (mid != null && child(swarm, n, mid) != t.child())) {
        continue;
      }
      for (int c = 0; c < layout.realComponents(); c++) {
        out[pos++] = swarm.real(c)[n];
      }
      for (int c = 0; c < layout.integerComponents(); c++) {
        out[pos++] = swarm.integer(c)[n];
      }
      count++;
    }
    out[countAt] = count;
    moved += count;
    return pos;
  }

  /** The first child's upper bound on each axis: where a refined block splits. */
  private double[] midpoints(LogicalLocation parent) {
    LogicalLocation first = parent.children(mesh.ndim())[0];
    double[] mid = new double[3];
    for (int axis = 0; axis < 3; axis++) {
      mid[axis] = mesh.blockRegion(first).xmax(axis);
    }
    return mid;
  }

  /** The child (x1 bit 0, x2 bit 1, x3 bit 2) whose octant holds particle {@code n}. */
  private int child(Swarm swarm, int n, double[] mid) {
    int child = 0;
    for (int axis = 0; axis < mesh.ndim(); axis++) {
      if (swarm.real(axis)[n] >= mid[axis]) {
        child |= 1 << axis;
      }
    }
    return child;
  }

  /**
   * Sends the messages of {@link #pack}, receives this rank's, and adds every incoming transfer's
   * particles to {@code to}, the new blocks' swarms, in plan order.
   */
  void deliver(RemeshPlan plan, SwarmStorage to) {
    int me = comm.rank();
    int nranks = comm.size();
    boolean[] sendsTo = new boolean[nranks];
    for (RemeshPlan.Transfer t : plan.transfers(comm.rank())) {
      if (t.toRank() == me && t.fromRank() != me) {
        sendsTo[t.fromRank()] = true;
      }
    }
    double[][] inboxes = receive(sendsTo);
    inboxes[me] = outboxes[me];
    int[] cursor = new int[nranks];
    int newFirst = plan.newDistribution().firstGid(me);
    for (RemeshPlan.Transfer t : plan.transfers(comm.rank())) {
      if (t.toRank() != me) {
        continue;
      }
      int from = t.fromRank();
      for (int s = 0; s < to.layouts().size(); s++) {
        cursor[from] = unpackRecord(inboxes[from], cursor[from], to.swarm(t.newGid() - newFirst,
            s));
      }
    }
  }

  /** Exchanges lengths, then messages; returns each source's message ({@code null} if none). */
  private double[][] receive(boolean[] sources) {
    int me = comm.rank();
    int nranks = comm.size();
    double[][] lengths = new double[nranks][];
    List<Request> requests = new ArrayList<>();
    for (int peer = 0; peer < nranks; peer++) {
      if (sources[peer]) {
        lengths[peer] = new double[1];
        requests.add(comm.irecv(lengths[peer], 0, 1, peer, LENGTH_TAG));
      }
    }
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && outLengths[peer] >= 0) {
        requests.add(comm.isend(new double[] {outLengths[peer]}, 0, 1, peer, LENGTH_TAG));
      }
    }
    waitAll(requests);
    double[][] inboxes = new double[nranks][];
    for (int peer = 0; peer < nranks; peer++) {
      if (sources[peer]) {
        int length = (int) lengths[peer][0];
        inboxes[peer] = new double[length];
        requests.add(comm.irecv(inboxes[peer], 0, length, peer, DATA_TAG));
      }
    }
    for (int peer = 0; peer < nranks; peer++) {
      if (peer != me && outLengths[peer] >= 0) {
        requests.add(comm.isend(outboxes[peer], 0, outLengths[peer], peer, DATA_TAG));
      }
    }
    waitAll(requests);
    return inboxes;
  }

  private static void waitAll(List<Request> requests) {
    for (Request r : requests) {
      r.waitFor();
    }
    requests.clear();
  }

  private static int unpackRecord(double[] in, int pos, Swarm swarm) {
    SwarmLayout layout = swarm.layout();
    int count = (int) in[pos++];
    swarm.addEmptyParticles(count);
    for (int p = 0; p < count; p++) {
      int n = swarm.newSlot(p);
      for (int c = 0; c < layout.realComponents(); c++) {
        swarm.real(c)[n] = in[pos++];
      }
      for (int c = 0; c < layout.integerComponents(); c++) {
        swarm.integer(c)[n] = (int) in[pos++];
      }
    }
    return pos;
  }

  /** {@code kept} when it holds {@code length} values, else a copy with room to spare. */
  private static double[] grow(double[] kept, long length) {
    if (kept != null && kept.length >= length) {
      return kept;
    }
    int size = (int) Math.min(Math.max(length + length / 2, 64), Integer.MAX_VALUE - 8);
    return kept == null ? new double[size] : Arrays.copyOf(kept, size);
  }
}
