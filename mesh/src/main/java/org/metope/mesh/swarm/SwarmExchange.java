package org.metope.mesh.swarm;

import java.util.Arrays;
import org.metope.comm.Communicator;
import org.metope.comm.Request;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmStorage;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * Moves one swarm's particles that left their block to the block that now holds them, on this
 * rank or another, at any level (Parthenon's {@code SwarmContainer::Send} and {@code Receive} with
 * the swarm boundary conditions), in two task-list tasks: {@link #send} and {@link #receive}.
 *
 * <p>{@link #send}: for every block in gid order and every particle in slot order outside its
 * block, the mesh face's condition applies first (periodic: the position wraps as in Parthenon,
 * {@code xmin + (x - xmax)}; outflow: the particle is removed); a particle still outside goes to
 * the neighbour whose bounds hold it, and leaves its block. Each particle is one record, {@code
 * [destination gid, real components..., integer components...]}, appended to the buffer of its
 * destination's rank; every peer rank gets one message per exchange, empty or not. {@link
 * #receive} polls until every peer's message has arrived and every send has completed, then adds
 * the records, sources in rank order (this rank's own buffer in its place), each in its order.
 *
 * <p>Why the slots come out the same on any number of ranks: ranks own ascending gid ranges, so
 * taking sources in rank order gives every destination its particles in the order (sender gid,
 * sender slot), as one rank would; every removal happens in {@link #send} before any addition, and
 * {@link Swarm#addEmptyParticles} takes the lowest free slot.
 *
 * <p>A particle must not cross more than one block per exchange (Parthenon's rule too): one that
 * lands beyond its block's neighbours stops the run with an {@link IllegalStateException}.
 * Buffers grow as needed and are reused; the plan is rebuilt when the mesh's block list changes.
 */
public final class SwarmExchange {
  private static final int TAG = 0;

  private final Mesh mesh;
  private final String swarmName;
  private final Communicator comm;
  private final int records;
  private SwarmExchangePlan plan;
  private double[][] sendBuffers = new double[0][];
  private int[] sendLengths = new int[0];
  private Request[] sends = new Request[0];
  private double[][] receiveBuffers = new double[0][];
  private int[] receiveLengths = new int[0];
  private Request[] receives = new Request[0];
  private boolean[] posted = new boolean[0];
  private boolean[] received = new boolean[0];
  private double[] local = new double[64];
  private int localLength;
  private long sent;

  /**
   * The exchange of swarm {@code swarmName} on {@code mesh}. Collective: every rank makes its
   * exchanges in the same order (each takes a duplicate of the mesh's communicator).
   *
   * @throws org.metope.mesh.field.SetupError for a mesh face condition particles do not know
   */
  public SwarmExchange(Mesh mesh, String swarmName) {
    this.mesh = mesh;
    this.swarmName = swarmName;
    SwarmLayout layout = mesh.swarms().layouts().get(mesh.swarms().index(swarmName));
    this.records = 1 + layout.realComponents() + layout.integerComponents();
    this.comm = mesh.communicator().duplicate();
    currentPlan();
  }

  /** Adds {@link #send} and then {@link #receive} to {@code list}; returns the receive's id. */
  public TaskId addTasks(TaskList list, TaskId dependency) {
    TaskId send = list.addTask(dependency, "send swarm " + swarmName, this::send);
    return list.addTask(send, "receive swarm " + swarmName, this::receive);
  }

  /** Particles this rank sent to another block (its own or another rank's) since it was made. */
  public long particlesSent() {
    return sent;
  }

  /** Finds the particles that left their blocks, removes them and posts the sends. */
  public TaskStatus send() {
    SwarmExchangePlan p = currentPlan();
    SwarmStorage storage = mesh.swarms();
    int s = storage.index(swarmName);
    Arrays.fill(sendLengths, 0);
    localLength = 0;
    for (int lid = 0; lid < p.blocks.size(); lid++) {
      collectLeavers(p, storage.swarm(lid, s), lid);
    }
    for (int i = 0; i < p.peers.length; i++) {
      sends[i] = comm.isend(sends[i], sendBuffers[i], 0, sendLengths[i], p.peers[i], TAG);
      posted[i] = false;
      received[i] = false;
    }
    return TaskStatus.COMPLETE;
  }

  private void collectLeavers(SwarmExchangePlan p, Swarm swarm, int lid) {
    int last = swarm.maxActiveIndex();
    for (int n = 0; n <= last; n++) {
      if (!swarm.isActive(n)) {
        continue;
      }
      double[] x = swarm.real(0);
      double[] y = swarm.real(1);
      double[] z = swarm.real(2);
      if (p.contains(p.bounds, lid, x[n], y[n], z[n])) {
        continue;
      }
      if (!applyMeshFaces(p, swarm, n)) {
        swarm.remove(n);
        continue;
      }
      if (p.contains(p.bounds, lid, x[n], y[n], z[n])) {
        continue;
      }
      int nb = p.neighbourContaining(lid, x[n], y[n], z[n]);
      if (nb < 0) {
        throw new IllegalStateException("swarm=" + swarmName + " block gid="
            + p.blocks.get(lid).gid() + " particle at (" + x[n] + ", " + y[n] + ", " + z[n]
            + ") is beyond the block's neighbours: it moved more than one block in a step");
      }
      int peer = p.nbRank[nb] == comm.rank() ? -1 : Arrays.binarySearch(p.peers, p.nbRank[nb]);
      append(peer, p.nbGid[nb], swarm, n);
      swarm.remove(n);
      sent++;
    }
  }

  /**
   * Applies the mesh faces' conditions to the particle in slot {@code n}: wraps it through
   * periodic faces; false when it left through an outflow face.
   */
  private static boolean applyMeshFaces(SwarmExchangePlan p, Swarm swarm, int n) {
    for (int axis = 0; axis < p.ndim; axis++) {
      double[] position = swarm.real(axis);
      double min = p.meshBounds[2 * axis];
      double max = p.meshBounds[2 * axis + 1];
      if (position[n] < min) {
        if (p.faces[2 * axis] != SwarmExchangePlan.FaceCondition.PERIODIC) {
          return false;
        }
        position[n] = max - (min - position[n]);
      } else if (position[n] >= max) {
        if (p.faces[2 * axis + 1] != SwarmExchangePlan.FaceCondition.PERIODIC) {
          return false;
        }
        position[n] = min + (position[n] - max);
      }
    }
    return true;
  }

  /** Appends slot {@code n} as a record for block {@code gid} to peer {@code peer} (-1: local). */
  private void append(int peer, int gid, Swarm swarm, int n) {
    SwarmLayout layout = swarm.layout();
    double[] buffer = peer < 0 ? local : sendBuffers[peer];
    int at = peer < 0 ? localLength : sendLengths[peer];
    if (buffer.length < at + records) {
      buffer = Arrays.copyOf(buffer, Math.max(2 * buffer.length, at + records));
      if (peer < 0) {
        local = buffer;
      } else {
        sendBuffers[peer] = buffer;
      }
    }
    buffer[at++] = gid;
    for (int c = 0; c < layout.realComponents(); c++) {
      buffer[at++] = swarm.real(c)[n];
    }
    for (int c = 0; c < layout.integerComponents(); c++) {
      buffer[at++] = swarm.integer(c)[n];
    }
    if (peer < 0) {
      localLength = at;
    } else {
      sendLengths[peer] = at;
    }
  }

  /**
   * Receives every peer's message without blocking; once all have arrived and every send has
   * completed, adds the particles to their blocks (sources in rank order) and completes.
   */
  public TaskStatus receive() {
    SwarmExchangePlan p = plan;
    boolean all = true;
    for (int i = 0; i < p.peers.length; i++) {
      all &= poll(p, i);
    }
    for (Request send : sends) {
      all &= send.test();
    }
    if (!all) {
      return TaskStatus.INCOMPLETE;
    }
    SwarmStorage storage = mesh.swarms();
    int s = storage.index(swarmName);
    int me = comm.rank();
    int next = 0;
    for (int rank = 0; rank < comm.size(); rank++) {
      if (rank == me) {
        unpack(storage, s, local, localLength);
      } else if (next < p.peers.length && p.peers[next] == rank) {
        unpack(storage, s, receiveBuffers[next], receiveLengths[next]);
        next++;
      }
    }
    return TaskStatus.COMPLETE;
  }

  private boolean poll(SwarmExchangePlan p, int i) {
    if (received[i]) {
      return true;
    }
    if (!posted[i]) {
      int length = comm.iprobe(p.peers[i], TAG);
      if (length < 0) {
        return false;
      }
      if (receiveBuffers[i].length < length) {
        receiveBuffers[i] = new double[Math.max(length, 2 * receiveBuffers[i].length)];
      }
      receives[i] = comm.irecv(receives[i], receiveBuffers[i], 0, length, p.peers[i], TAG);
      posted[i] = true;
    }
    if (receives[i].test()) {
      receiveLengths[i] = receives[i].length();
      received[i] = true;
    }
    return received[i];
  }

  private void unpack(SwarmStorage storage, int s, double[] buffer, int length) {
    for (int at = 0; at < length; at += records) {
      int gid = (int) buffer[at];
      Swarm swarm = storage.swarm(mesh.block(gid).lid(), s);
      swarm.addEmptyParticles(1);
      int n = swarm.newSlot(0);
      int from = at + 1;
      for (int c = 0; c < swarm.layout().realComponents(); c++) {
        swarm.real(c)[n] = buffer[from++];
      }
      for (int c = 0; c < swarm.layout().integerComponents(); c++) {
        swarm.integer(c)[n] = (int) buffer[from++];
      }
    }
  }

  /** The plan of the current block list, rebuilt (with its buffers) when the list changed. */
  private SwarmExchangePlan currentPlan() {
    if (plan == null || plan.blocks != mesh.blocks()) {
      plan = new SwarmExchangePlan(mesh);
      int peers = plan.peers.length;
      sendBuffers = new double[peers][64];
      sendLengths = new int[peers];
      receiveBuffers = new double[peers][64];
      receiveLengths = new int[peers];
      sends = new Request[peers];
      receives = new Request[peers];
      posted = new boolean[peers];
      received = new boolean[peers];
      for (int i = 0; i < peers; i++) {
        sends[i] = comm.newRequest();
        receives[i] = comm.newRequest();
      }
    }
    return plan;
  }
}
