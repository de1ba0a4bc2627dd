package org.metope.examples.ghostcheck;

import java.util.List;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.view.FieldView;

/**
 * The part of {@code ghost_check} for face, edge and node fields ({@code <ghost_check> elements =
 * true}): a face vector {@code face_q} (two components), an edge field {@code edge_q} and a node
 * field {@code node_q}. Each block writes, at every value it holds in its interior (the faces,
 * edges and corners it shares with its neighbours included), a linear function of the value's
 * global index plus {@code 1e-3 * gid}, so that blocks disagree on shared values; its ghosts start
 * as NaN. After the exchange every value a block holds must be the function plus the owner's
 * term, where the owner of a shared value is the block that holds it in its interior with the
 * highest gid (Parthenon's rule on one level: the highest Morton number, the order of gids). A
 * wrong value is a wrong ghost or a shared value on which two blocks disagree. Beyond a physical
 * boundary a ghost holds the value its condition copies ({@link #source}).
 */
final class ElementGhostCheck {
  private static final List<String> FIELDS = List.of("face_q", "edge_q", "node_q");
  private final double[] slope;
  private final double value;

  ElementGhostCheck(double[] slope, double value) {
    this.slope = slope;
    this.value = value;
  }

  /** Adds the three fields to the package. */
  static void declare(StateDescriptor pkg) {
    pkg.addField("face_q", Metadata.builder(MetadataFlag.FACE, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST).shape(2).build());
    pkg.addField("edge_q", Metadata.of(MetadataFlag.EDGE, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    pkg.addField("node_q", Metadata.of(MetadataFlag.NODE, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
  }

  private double f(long[] g, TopologicalElement el, int n) {
    return value + n + 100 * el.elementIndex() + slope[0] * g[0] + slope[1] * g[1]
        + slope[2] * g[2];
  }

  /** Writes block {@code b}'s interior values and NaN ghosts. */
  void fill(MeshData md, int b) {
    double term = 1e-3 * md.block(b).gid();
    for (String name : FIELDS) {
      FieldView v = FieldView.of(md, name);
      visit(md, b, name, (el, n, k, j, i, g, interior) -> v.set(el, b, n, k, j, i,
          interior ? f(g, el, n) + term : Double.NaN));
    }
  }

  /** The wrong values of block {@code b}, ghosts and shared values alike. */
  long countWrong(MeshData md, int b) {
    Mesh mesh = md.block(b).mesh();
    List<LogicalLocation> leaves = mesh.forest().sortedLeaves();
    IndexShape shape = md.block(b).cellBounds();
    long[] wrong = new long[1];
    for (String name : FIELDS) {
      FieldView v = FieldView.of(md, name);
      visit(md, b, name, (el, n, k, j, i, g, interior) -> {
        double expected = f(g, el, n) + 1e-3 * owner(mesh, leaves, g, el, shape);
        if (Double.doubleToLongBits(v.get(el, b, n, k, j, i))
            != Double.doubleToLongBits(expected)) {
          wrong[0]++;
        }
      });
    }
    return wrong[0];
  }

  /** One value of a block: element, component, indices, global index, whether interior. */
  private interface Visitor {
    void at(TopologicalElement el, int n, int k, int j, int i, long[] g, boolean interior);
  }

  /** Visits every value of field {@code name} on block {@code b}, ghosts included. */
  private static void visit(MeshData md, int b, String name, Visitor visitor) {
    MeshBlock block = md.block(b);
    IndexShape shape = block.cellBounds();
    Metadata m = md.state().field(name).metadata();
    int[] lo = new int[3];
    int[] hi = new int[3];
    int[] idx = new int[3];
    long[] g = new long[3];
    for (TopologicalElement el : m.elements()) {
      for (int a = 0; a < 3; a++) {
        lo[a] = shape.start(a, IndexDomain.ENTIRE, el);
        hi[a] = shape.end(a, IndexDomain.ENTIRE, el);
      }
      for (int n = 0; n < m.numComponents(); n++) {
        for (idx[2] = lo[2]; idx[2] <= hi[2]; idx[2]++) {
          for (idx[1] = lo[1]; idx[1] <= hi[1]; idx[1]++) {
            for (idx[0] = lo[0]; idx[0] <= hi[0]; idx[0]++) {
              boolean interior = true;
              for (int a = 0; a < 3; a++) {
                if (shape.isActive(a)) {
                  int nx = shape.interiorNcells(a);
                  long local = idx[a] - shape.nghost();
                  g[a] = source(block, a, block.loc().l(a) * nx + local, offset(el, a));
                  interior &= local >= 0 && local <= nx - 1 + offset(el, a);
                } else {
                  g[a] = 0;
                }
              }
              visitor.at(el, n, idx[2], idx[1], idx[0], g, interior);
            }
          }
        }
      }
    }
  }

  /**
   * The global index whose value index {@code at} along axis {@code a} holds after the exchange
   * and the physical conditions: across a periodic boundary the wrapped index; beyond an outflow
   * boundary the last layer inside (the boundary face itself for an element on it); beyond a
   * reflecting one the mirror about that layer plus one half, {@code 2 ref + 1 - at} (Parthenon's
   * GenericBC for every element).
   */
  private static long source(MeshBlock block, int a, long at, int top) {
    long cells = indices(block, a);
    if (block.mesh().config().isPeriodic(a)) {
      return Math.floorMod(at, cells);
    }
    long last = cells - 1 + top;
    boolean below = at < 0;
    if (!below && at <= last) {
      return at;
    }
    String bc = block.mesh().config().boundaryName(BoundaryFace.of(a, !below));
    long ref = below ? 0 : last;
    if ("reflecting".equals(bc)) {
      return below ? 2 * ref - 1 - at : 2 * ref + 1 - at;
    }
    return ref;
  }

  /** The element's extra index along axis {@code a}: 1 where it lies on the cells' upper faces. */
  private static int offset(TopologicalElement el, int a) {
    return a == 0 ? el.offsetI() : a == 1 ? el.offsetJ() : el.offsetK();
  }

  /** Cells of the mesh along active axis {@code a}, at {@code block}'s level. */
  private static long indices(MeshBlock block, int a) {
    return (long) block.cellBounds().interiorNcells(a)
        * block.mesh().forest().grid().extent(a, block.loc().level());
  }

  /**
   * The highest gid of the blocks that hold global index {@code g} of {@code el} inside;
   * {@code leaves} is the forest's leaves in gid order.
   */
  private static long owner(Mesh mesh, List<LogicalLocation> leaves, long[] g,
      TopologicalElement el, IndexShape shape) {
    RootGrid grid = mesh.forest().grid();
    long best = -1;
    for (int gid = 0; gid < leaves.size(); gid++) {
      LogicalLocation loc = leaves.get(gid);
      boolean holds = true;
      for (int a = 0; a < 3 && holds; a++) {
        if (shape.isActive(a)) {
          int nx = shape.interiorNcells(a);
          long cells = nx * grid.extent(a, loc.level());
          long local = grid.isPeriodic(a) ? Math.floorMod(g[a] - loc.l(a) * nx, cells)
              : g[a] - loc.l(a) * nx;
          holds = local >= 0 && local <= nx - 1 + offset(el, a);
        }
      }
      best = holds ? gid : best;
    }
    return best;
  }
}
