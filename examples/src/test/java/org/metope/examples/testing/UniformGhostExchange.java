package org.metope.examples.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.comm.Communicator;
import org.metope.comm.Request;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.forest.NeighborIndex;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskStatus;

/**
 * A plain, test-only {@link BoundaryCommunication} for single-level meshes whose every boundary is
 * periodic: each ghost region of each block is copied from the interior of the neighbour {@link
 * MeshBlock#neighbors()} names, one channel per (receiving block, element). It stands in for the
 * {@code bvals} module so that whole simulations can run in tests.
 *
 * <p>Channels between blocks of one rank go through a buffer with a full/empty flag; channels
 * between ranks go through the communicator with tag {@code receiverGid * 27 + element}. Sends
 * wait (return {@code INCOMPLETE}) until the previous message of their channel was consumed, so a
 * fast partition never overwrites data a slow one has not read. Dense {@code FILL_GHOST} fields
 * only; no flux correction (none is needed on one level).
 */
public final class UniformGhostExchange implements BoundaryCommunication {
  /** One (sender block, receiver block, element) channel with its index boxes. */
  private static final class Channel {
    int senderLocal = -1;
    int receiverLocal = -1;
    int peer;
    int tag;
    final int[] sendBox = new int[6];
    final int[] receiveBox = new int[6];
    int cells;
    double[] buffer;
    Request request;
  }

  private final List<Channel> sendChannels = new ArrayList<>();
  private final List<Channel> receiveChannels = new ArrayList<>();
  private Mesh mesh;
  private Communicator comm;
  private int[] fields;
  /** Same-rank channels: 1 while the buffer holds a message the receiver has not read. */
  private AtomicIntegerArray full;
  /** Channels sent by the send task now running for their partition. */
  private boolean[] sent;

  @Override
  public void setup(Mesh mesh) {
    this.mesh = mesh;
    this.comm = mesh.communicator();
    sendChannels.clear();
    receiveChannels.clear();
    List<Integer> ids = new ArrayList<>();
    int values = 0;
    for (FieldInfo f : mesh.resolvedPackages().fieldsWith(MetadataFlag.FILL_GHOST)) {
      if (!f.isSparse() && f.metadata().isSet(MetadataFlag.CELL)) {
        ids.add(f.id());
        values += f.numComponents();
      }
    }
    fields = ids.stream().mapToInt(Integer::intValue).toArray();
    int first = mesh.blocks().isEmpty() ? 0 : mesh.blocks().get(0).gid();
    for (MeshBlock block : mesh.blocks()) {
      requirePeriodic(block);
      for (NeighborBlock nb : block.neighbors()) {
        if (nb.levelDifference() != 0) {
          throw new UnsupportedOperationException("test exchange: single-level meshes only");
        }
        // As sender: our element e faces nb, which receives into its ghosts at -e.
        Channel send = channel(nb.rank() == mesh.myRank() ? -1 : nb.rank(),
            nb.gid() * NeighborIndex.COUNT + nb.reverseElement().index(), values);
        send.senderLocal = block.lid();
        box(block, nb.element(), true, send.sendBox);
        sendChannels.add(send);
        Channel receive = nb.rank() == mesh.myRank()
            ? null : channel(nb.rank(), block.gid() * NeighborIndex.COUNT + nb.element().index(),
                values);
        if (receive == null) {
          continue;
        }
        receive.receiverLocal = block.lid();
        box(block, nb.element(), false, receive.receiveBox);
        receiveChannels.add(receive);
      }
    }
    linkLocalChannels(first);
    full = new AtomicIntegerArray(sendChannels.size());
    sent = new boolean[sendChannels.size()];
    if ((long) mesh.totalBlocks() * NeighborIndex.COUNT > Communicator.MAX_TAG) {
      throw new UnsupportedOperationException("test exchange: too many blocks for its tags");
    }
  }

  private static void requirePeriodic(MeshBlock block) {
    for (BoundaryFace face : BoundaryFace.values()) {
      if (block.boundaryFlag(face) == BoundaryFlag.USER
          && !block.region().isSymmetry(face.axis())) {
        throw new UnsupportedOperationException("test exchange: periodic boundaries only");
      }
    }
  }

  private Channel channel(int peer, int tag, int valuesPerCell) {
    Channel c = new Channel();
    c.peer = peer;
    c.tag = tag;
    c.cells = valuesPerCell;
    return c;
  }

  /** Same-rank channels: the receiving side is the sender's channel, found by its tag. */
  private void linkLocalChannels(int firstGid) {
    for (Channel c : sendChannels) {
      if (c.peer < 0) {
        int receiverGid = c.tag / NeighborIndex.COUNT;
        c.receiverLocal = receiverGid - firstGid;
        MeshBlock receiver = mesh.block(receiverGid);
        box(receiver, NeighborIndex.ofIndex(c.tag % NeighborIndex.COUNT), false, c.receiveBox);
      }
      c.cells *= volume(c.sendBox);
      c.buffer = new double[c.cells];
      c.request = comm.newRequest();
    }
    for (Channel c : receiveChannels) {
      c.cells *= volume(c.receiveBox);
      c.buffer = new double[c.cells];
      c.request = comm.newRequest();
    }
  }

  private static int volume(int[] box) {
    return (box[1] - box[0] + 1) * (box[3] - box[2] + 1) * (box[5] - box[4] + 1);
  }

  /**
   * The cells of {@code block} next to {@code element}: its interior cells touching it ({@code
   * interior = true}, what a sender sends) or its ghost cells beyond it (what a receiver sets).
   */
  private static void box(MeshBlock block, NeighborIndex element, boolean interior, int[] out) {
    int ng = block.cellBounds().nghost();
    for (int axis = 0; axis < 3; axis++) {
      int nx = block.cellBounds().interiorNcells(axis);
      if (!block.cellBounds().isActive(axis)) {
        out[2 * axis] = 0;
        out[2 * axis + 1] = 0;
        continue;
      }
      int o = element.offset(axis);
      int lo;
      int hi;
      if (o == 0) {
        lo = ng;
        hi = ng + nx - 1;
      } else if (interior) {
        lo = o > 0 ? nx : ng;
        hi = lo + ng - 1;
      } else {
        lo = o > 0 ? ng + nx : 0;
        hi = lo + ng - 1;
      }
      out[2 * axis] = lo;
      out[2 * axis + 1] = hi;
    }
  }

  @Override
  public TaskStatus startReceiveBoundaries(MeshData md) {
    for (Channel c : receiveChannels) {
      if (inPartition(md, c.receiverLocal) && !c.request.isActive()) {
        comm.irecv(c.request, c.buffer, 0, c.cells, c.peer, c.tag);
      }
    }
    return TaskStatus.COMPLETE;
  }

  @Override
  public TaskStatus startReceiveFluxCorrections(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  private static boolean inPartition(MeshData md, int local) {
    return local >= md.blockIndex(0) && local < md.blockIndex(0) + md.numBlocks();
  }

  /**
   * Packs and sends every channel whose sender is in {@code md}; a channel whose previous message
   * is still unread waits, and the task returns {@code INCOMPLETE} until every channel is sent.
   */
  private TaskStatus send(MeshData md) {
    boolean done = true;
    for (int n = 0; n < sendChannels.size(); n++) {
      Channel c = sendChannels.get(n);
      if (!inPartition(md, c.senderLocal) || sent[n]) {
        continue;
      }
      if (c.peer < 0 ? full.get(n) == 1 : c.request.isActive() && !c.request.test()) {
        done = false;
        continue;
      }
      copy(md, c.senderLocal - md.blockIndex(0), c.sendBox, c.buffer, true);
      if (c.peer < 0) {
        full.set(n, 1);
      } else {
        comm.isend(c.request, c.buffer, 0, c.cells, c.peer, c.tag);
      }
      sent[n] = true;
    }
    if (!done) {
      return TaskStatus.INCOMPLETE;
    }
    for (int n = 0; n < sendChannels.size(); n++) {
      if (inPartition(md, sendChannels.get(n).senderLocal)) {
        sent[n] = false;
      }
    }
    return TaskStatus.COMPLETE;
  }

  /** Unpacks every channel into {@code md}'s ghosts once all of them have arrived. */
  private TaskStatus receive(MeshData md) {
    for (int n = 0; n < sendChannels.size(); n++) {
      Channel c = sendChannels.get(n);
      if (c.peer < 0 && inPartition(md, c.receiverLocal) && full.get(n) != 1) {
        return TaskStatus.INCOMPLETE;
      }
    }
    for (Channel c : receiveChannels) {
      if (inPartition(md, c.receiverLocal) && !c.request.test()) {
        return TaskStatus.INCOMPLETE;
      }
    }
    for (int n = 0; n < sendChannels.size(); n++) {
      Channel c = sendChannels.get(n);
      if (c.peer < 0 && inPartition(md, c.receiverLocal)) {
        copy(md, c.receiverLocal - md.blockIndex(0), c.receiveBox, c.buffer, false);
        full.set(n, 0);
      }
    }
    for (Channel c : receiveChannels) {
      if (inPartition(md, c.receiverLocal)) {
        copy(md, c.receiverLocal - md.blockIndex(0), c.receiveBox, c.buffer, false);
      }
    }
    return TaskStatus.COMPLETE;
  }

  /** Copies the box of every exchanged field of block {@code b} into or out of the buffer. */
  private void copy(MeshData md, int b, int[] box, double[] buffer, boolean pack) {
    double[] a = md.data();
    int n = 0;
    int width = box[1] - box[0] + 1;
    for (int f : fields) {
      int components = md.state().field(f).numComponents();
      for (int c = 0; c < components; c++) {
        for (int k = box[4]; k <= box[5]; k++) {
          for (int j = box[2]; j <= box[3]; j++) {
            int row = md.index(f, b, c, k, j, box[0]);
            if (pack) {
              System.arraycopy(a, row, buffer, n, width);
            } else {
              System.arraycopy(buffer, n, a, row, width);
            }
            n += width;
          }
        }
      }
    }
  }

  @Override
  public TaskId addBoundaryExchange(TaskId dependency, TaskList list, MeshData md) {
    list.addTask(dependency, "SendBoundBufs", () -> send(md));
    return list.addTask(dependency, "ReceiveAndSetBounds", () -> receive(md));
  }

  @Override
  public TaskId addFluxCorrection(TaskId dependency, TaskList list, MeshData md) {
    return dependency;
  }

  @Override
  public TaskStatus applyBoundaryConditions(MeshData md) {
    return TaskStatus.COMPLETE;
  }

  @Override
  public void fillGhosts(Mesh mesh, String container) {
    List<MeshData> parts = mesh.meshData(container);
    for (MeshData md : parts) {
      startReceiveBoundaries(md);
    }
    for (MeshData md : parts) {
      while (send(md) != TaskStatus.COMPLETE) {
        Thread.onSpinWait();
      }
    }
    for (MeshData md : parts) {
      while (receive(md) != TaskStatus.COMPLETE) {
        Thread.onSpinWait();
      }
    }
  }
}
