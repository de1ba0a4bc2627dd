package org.metope.mesh.swarm;

import org.metope.mesh.BoundaryFace;
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
 * {@code xmin + (x - xmax)}; outflow: the particle is removed; a registered {@link
 * SwarmBoundaryFunction}: it moves the particle back inside or removes it); a particle still outside goes to
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
  /** The faces in order; a copy, since {@code values()} allocates on every call. */
  private static final BoundaryFace[] FACES = BoundaryFace.values();

  private final Mesh mesh;
  private final String swarmName;
  private final RecordTransport transport;
  private final int records;
  private final SwarmBoundaryFunctions functions;
  private SwarmExchangePlan plan;
  private long sent;

  /**
   * The exchange of swarm {@code swarmName} on {@code mesh}. Collective: every rank makes its
   * exchanges in the same order (each takes a duplicate of the mesh's communicator).
   *
   * @throws org.metope.mesh.field.SetupError for a mesh face condition particles do not know
   */
  public SwarmExchange(Mesh mesh, String swarmName) {
    this(mesh, swarmName, new SwarmBoundaryFunctions());
  }

  /**
   * The exchange of swarm {@code swarmName} on {@code mesh}, with the user particle conditions
   * of {@code functions} on the faces whose deck names they are registered under.
   *
   * @throws org.metope.mesh.field.SetupError for a mesh face condition particles do not know
   */
  public SwarmExchange(Mesh mesh, String swarmName, SwarmBoundaryFunctions functions) {
    this.mesh = mesh;
    this.functions = functions;
    this.swarmName = swarmName;
    SwarmLayout layout = mesh.swarms().layouts().get(mesh.swarms().index(swarmName));
    this.records = 1 + layout.realComponents() + layout.integerComponents();
    this.transport = new RecordTransport(mesh.communicator().duplicate(), TAG);
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
    transport.clear();
    for (int lid = 0; lid < p.blocks.size(); lid++) {
      collectLeavers(p, storage.swarm(lid, s), lid);
    }
    transport.post();
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
      append(transport.peerIndex(p.nbRank[nb]), p.nbGid[nb], swarm, n);
      swarm.remove(n);
      sent++;
    }
  }

  /**
   * Applies the mesh faces' conditions to the particle in slot {@code n}: wraps it through
   * periodic faces, hands it to a face's user function; false when it is to be removed.
   *
   * @throws IllegalStateException when a user function keeps the particle outside the mesh
   */
  private boolean applyMeshFaces(SwarmExchangePlan p, Swarm swarm, int n) {
    for (int axis = 0; axis < p.ndim; axis++) {
      double[] x = swarm.real(axis);
      double min = p.meshSize.xmin(axis);
      double max = p.meshSize.xmax(axis);
      int side = x[n] < min ? 0 : x[n] >= max ? 1 : -1;
      SwarmBoundaryFunction user = side < 0 ? null : p.user[2 * axis + side];
      if (user == null) {
        if (!p.wrap(x, n, axis)) {
          return false;
        }
        continue;
      }
      BoundaryFace face = FACES[2 * axis + side];
      if (!user.apply(swarm, n, face, p.meshSize)) {
        return false;
      }
      if (!(x[n] >= min && x[n] < max)) {
        throw new IllegalStateException("swarm=" + swarmName + " the particle condition of "
            + face.deckKey() + " left a particle at x" + (axis + 1) + "=" + x[n]
            + ", outside the mesh [" + min + ", " + max + ")");
      }
    }
    return true;
  }

  /** Appends slot {@code n} as a record for block {@code gid} to peer index {@code peer}. */
  private void append(int peer, int gid, Swarm swarm, int n) {
    SwarmLayout layout = swarm.layout();
    int at = transport.reserve(peer, records);
    double[] buffer = transport.buffer(peer);
    buffer[at++] = gid;
    for (int c = 0; c < layout.realComponents(); c++) {
      buffer[at++] = swarm.real(c)[n];
    }
    for (int c = 0; c < layout.integerComponents(); c++) {
      buffer[at++] = swarm.integer(c)[n];
    }
  }

  /**
   * Receives every peer's message without blocking; once all have arrived and every send has
   * completed, adds the particles to their blocks (sources in rank order) and completes.
   */
  public TaskStatus receive() {
    if (!transport.poll()) {
      return TaskStatus.INCOMPLETE;
    }
    SwarmStorage storage = mesh.swarms();
    int s = storage.index(swarmName);
    for (int k = 0; k < transport.sources(); k++) {
      unpack(storage, s, transport.source(k), transport.sourceLength(k));
    }
    return TaskStatus.COMPLETE;
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

  /** The plan of the current block list, rebuilt (with the transport's peers) when it changed. */
  private SwarmExchangePlan currentPlan() {
    plan = SwarmExchangePlan.current(plan, mesh, transport, functions);
    return plan;
  }
}
