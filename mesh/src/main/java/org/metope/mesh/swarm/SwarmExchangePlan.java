package org.metope.mesh.swarm;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.SetupError;
import org.metope.mesh.geometry.RegionSize;

/**
 * Where particles that leave a block of this rank go (the plan of a {@link SwarmExchange}, built
 * from the mesh, holding no particles): each local block's bounds, its neighbours' gids, ranks and
 * bounds (every level, across periodic boundaries), the mesh's bounds and each active face's
 * particle condition, and the peer ranks, ascending.
 *
 * <p>Bounds are half-open, {@code [xmin, xmax)} on each active axis, as Parthenon locates a
 * particle. Stored flat: block {@code lid}'s bounds at {@code bounds[6 * lid + 2 * axis]} (min)
 * and {@code + 1} (max); its neighbours are {@code nbStart[lid] .. nbStart[lid + 1] - 1} of the
 * arrays {@code nbGid}, {@code nbRank}, {@code nbBounds} (six values each).
 */
final class SwarmExchangePlan {
  /** What happens to a particle that leaves the mesh through a face. */
  enum FaceCondition {
    /** It comes back through the opposite face (Parthenon's periodic wrap). */
    PERIODIC,
    /** It is removed (Parthenon's swarm outflow). */
    OUTFLOW,
    /** A registered {@link SwarmBoundaryFunction} decides ({@link #user}). */
    USER
  }

  final List<MeshBlock> blocks;
  final int ndim;
  final double[] bounds;
  final int[] nbStart;
  final int[] nbGid;
  final int[] nbRank;
  final double[] nbBounds;
  final double[] meshBounds = new double[6];
  final FaceCondition[] faces = new FaceCondition[6];
  /** The user function of each face whose condition is {@link FaceCondition#USER}, else null. */
  final SwarmBoundaryFunction[] user = new SwarmBoundaryFunction[6];
  final RegionSize meshSize;
  final int[] peers;

  /**
   * The plan of {@code mesh}'s current blocks.
   *
   * @throws SetupError for a mesh face whose condition particles do not have (periodic, outflow
   *     or one of {@code functions} for that face)
   */
  SwarmExchangePlan(Mesh mesh, SwarmBoundaryFunctions functions) {
    this.blocks = mesh.blocks();
    this.ndim = mesh.ndim();
    RegionSize size = mesh.meshSize();
    this.meshSize = size;
    for (int axis = 0; axis < 3; axis++) {
      meshBounds[2 * axis] = size.xmin(axis);
      meshBounds[2 * axis + 1] = size.xmax(axis);
    }
    for (BoundaryFace face : BoundaryFace.values()) {
      if (face.axis() < ndim) {
        String name = mesh.config().boundaryName(face);
        user[face.ordinal()] = functions.find(face, name);
        faces[face.ordinal()] = user[face.ordinal()] != null ? FaceCondition.USER
            : condition(name, face);
      }
    }
    bounds = new double[6 * blocks.size()];
    nbStart = new int[blocks.size() + 1];
    List<int[]> gidRank = new ArrayList<>();
    List<RegionSize> regions = new ArrayList<>();
    TreeSet<Integer> peerSet = new TreeSet<>();
    for (MeshBlock block : blocks) {
      put(bounds, block.lid(), block.region());
      nbStart[block.lid()] = gidRank.size();
      TreeSet<Integer> seen = new TreeSet<>();
      for (NeighborBlock nb : block.neighbors()) {
        if (nb.gid() != block.gid() && seen.add(nb.gid())) {
          gidRank.add(new int[] {nb.gid(), nb.rank()});
          regions.add(mesh.blockRegion(nb.loc()));
          if (nb.rank() != mesh.myRank()) {
            peerSet.add(nb.rank());
          }
        }
      }
    }
    nbStart[blocks.size()] = gidRank.size();
    nbGid = new int[gidRank.size()];
    nbRank = new int[gidRank.size()];
    nbBounds = new double[6 * gidRank.size()];
    for (int i = 0; i < nbGid.length; i++) {
      nbGid[i] = gidRank.get(i)[0];
      nbRank[i] = gidRank.get(i)[1];
      put(nbBounds, i, regions.get(i));
    }
    peers = peerSet.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Applies the mesh faces of {@code axis} to position {@code x[index]}: wraps it through a
   * periodic face as Parthenon does ({@code xmin + (x - xmax)}); false when it left through
   * another face.
   */
  boolean wrap(double[] x, int index, int axis) {
    double min = meshBounds[2 * axis];
    double max = meshBounds[2 * axis + 1];
    if (x[index] < min) {
      if (faces[2 * axis] != FaceCondition.PERIODIC) {
        return false;
      }
      x[index] = max - (min - x[index]);
    } else if (x[index] >= max) {
      if (faces[2 * axis + 1] != FaceCondition.PERIODIC) {
        return false;
      }
      x[index] = min + (x[index] - max);
    }
    return true;
  }

  /**
   * {@code plan} while it describes {@code mesh}'s current block list, else a new plan, with
   * {@code transport} set to its peers.
   */
  static SwarmExchangePlan current(SwarmExchangePlan plan, Mesh mesh, RecordTransport transport,
      SwarmBoundaryFunctions functions) {
    if (plan != null && plan.blocks == mesh.blocks()) {
      return plan;
    }
    SwarmExchangePlan fresh = new SwarmExchangePlan(mesh, functions);
    transport.setPeers(fresh.peers);
    return fresh;
  }

  private static FaceCondition condition(String name, BoundaryFace face) {
    return switch (name) {
      case "periodic" -> FaceCondition.PERIODIC;
      case "outflow" -> FaceCondition.OUTFLOW;
      default -> throw new SetupError("<parthenon/mesh> " + face.deckKey() + " = " + name
          + ": particles know periodic, outflow and the conditions registered for the face");
    };
  }

  private static void put(double[] into, int index, RegionSize region) {
    for (int axis = 0; axis < 3; axis++) {
      into[6 * index + 2 * axis] = region.xmin(axis);
      into[6 * index + 2 * axis + 1] = region.xmax(axis);
    }
  }

  /** Whether {@code (x1, x2, x3)} lies in the box at {@code box[6 * index]} on the active axes. */
  boolean contains(double[] box, int index, double x1, double x2, double x3) {
    int o = 6 * index;
    return x1 >= box[o] && x1 < box[o + 1]
        && (ndim < 2 || (x2 >= box[o + 2] && x2 < box[o + 3]))
        && (ndim < 3 || (x3 >= box[o + 4] && x3 < box[o + 5]));
  }

  /**
   * The index in {@link #nbGid} of block {@code lid}'s neighbour containing the position, or -1
   * when none does.
   */
  int neighbourContaining(int lid, double x1, double x2, double x3) {
    for (int i = nbStart[lid]; i < nbStart[lid + 1]; i++) {
      if (contains(nbBounds, i, x1, x2, x3)) {
        return i;
      }
    }
    return -1;
  }
}
