package org.metope.bvals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metope.bvals.channel.BoundaryType;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;

/**
 * The ghost-exchange plans ({@link BoundaryType#ANY}, both directions) of a rank's partitions as
 * they were when boundary communication was released for a remesh, so that the plans after it
 * take the rows of blocks that kept their location and neighbours ({@link
 * MeshBlock#previousLid()}) instead of working them out again: such a block's rows differ only
 * in where its data and its channels' buffers now lie. A block's rows are its boundaries (every
 * field, every neighbour, in cache order) and their refinement rows; Parthenon builds every plan
 * afresh.
 *
 * <p>Only when every exchanged field is a dense cell field: a sparse field's offsets follow its
 * allocations, and face, edge and node fields' ownership masks depend on which blocks were just
 * refined. Only the plans that were built, not carried over to other containers ({@link
 * ContainerPlans}), since only those are built again. Holds the old tables, never the old
 * channels or field data; the next {@link BoundaryCaches#release} replaces it.
 */
final class PreviousPlans {
  /**
   * What one partition's plan of one direction held: its tables and per-boundary arrays (not its
   * channels, whose buffers go with the old arena).
   */
  private record Plan(int firstBlock, int numBlocks, BoundaryTable table, BoundaryTable prores,
      int[] block, int[] field, int[] proresOwner) {
    int size() {
      return table.size;
    }
  }

  private final Mesh mesh;
  private final int generation;
  private final List<FieldInfo> fields;
  private final ArenaLayout layout;
  /** By container index, then sender (1) or receiver (0): the partitions' plans. */
  private final List<List<List<Plan>>> plans = new ArrayList<>();

  private PreviousPlans(Mesh mesh, List<FieldInfo> fields, ArenaLayout layout, int containers) {
    this.mesh = mesh;
    this.generation = mesh.blockGeneration();
    this.fields = fields;
    this.layout = layout;
    for (int c = 0; c < containers; c++) {
      plans.add(List.of(new ArrayList<>(), new ArrayList<>()));
    }
  }

  /**
   * The current ghost-exchange plans of {@code caches} (partitions of {@code mesh}'s current
   * blocks) that were built, not carried over ({@link ContainerPlans}), or null when none can
   * serve: no plan, or a field that is not a dense cell field.
   */
  static PreviousPlans of(Mesh mesh, List<FieldInfo> fields,
      Map<MeshData, BvarsCache> caches, long arenaLayoutVersion) {
    for (FieldInfo f : fields) {
      if (f.isSparse() || !f.metadata().isSet(MetadataFlag.CELL)) {
        return null;
      }
    }
    PreviousPlans kept = null;
    for (Map.Entry<MeshData, BvarsCache> e : caches.entrySet()) {
      MeshData md = e.getKey();
      if (md.storage() != mesh.fields() || e.getValue().owner != md) {
        continue;
      }
      for (int sender = 0; sender < 2; sender++) {
        BvarsSubCache sub = e.getValue().get(BoundaryType.ANY, sender == 1);
        if (sub == null || sub.allocationVersion != md.allocationVersion()
            || sub.arenaLayoutVersion != arenaLayoutVersion) {
          continue;
        }
        if (kept == null) {
          kept = new PreviousPlans(mesh, fields, md.layout(), mesh.fields().containers().size());
        }
        kept.plans.get(md.container()).get(sender)
            .add(new Plan(md.blockIndex(0), md.numBlocks(), sub.table, sub.prores, sub.block,
                sub.field, sub.proresOwner));
      }
    }
    return kept;
  }

  /** Whether these plans were made on the block list just before {@code md}'s. */
  boolean serves(MeshData md, List<FieldInfo> ghostFields) {
    return md.numBlocks() > 0 && md.block(0).mesh() == mesh
        && mesh.blockGeneration() == generation + 1 && ghostFields.equals(fields)
        && md.container() < plans.size();
  }

  /**
   * Adds partition block {@code b}'s boundaries to {@code s} from the old plan, or does nothing
   * and returns -1 when there are none to take; else returns the index after them. {@code index}
   * is the first boundary's.
   */
  int copyBlock(MeshData md, int b, boolean sender, CacheBuildScratch s, int index,
      InOneBoundaryCommunication comm) {
    MeshBlock block = md.block(b);
    int oldLid = block.previousLid();
    Plan plan = oldLid < 0 ? null : planOf(md.container(), sender, oldLid);
    if (plan == null) {
      return -1;
    }
    int neighbours = block.neighbors().size();
    int count = fields.size() * neighbours;
    int first = firstAtLeast(plan.block, 0, plan.size(), oldLid - plan.firstBlock());
    if (first + count > plan.size() || count == 0
        || plan.block[first + count - 1] != oldLid - plan.firstBlock()
        || first + count < plan.size() && plan.block[first + count] == plan.block[first]) {
      return -1;
    }
    for (int k = 0; k < count; k++) {
      if (plan.field[first + k] != fields.get(k / neighbours).id()) {
        return -1;
      }
    }
    ArenaLayout now = md.layout();
    int newBlock = md.blockIndex(b);
    BoundaryTable table = plan.table;
    BoundaryTable prores = plan.prores;
    int row = s.table.addCopies(table, first, count);
    for (int k = 0; k < count; k++) {
      int i = first + k;
      int f = k / neighbours;
      var buffer = comm.valueChannels().channel(block, f, k % neighbours, sender);
      s.buffers.add(buffer);
      s.blocks.add(b);
      s.fields.add(fields.get(f).id());
      s.allocated.add(1);
      int var = move(table, i, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
      int fine = move(table, i, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
      s.table.moveCopy(row + k, var, fine, buffer.isAllocated() ? buffer.buffer().offset() : 0);
    }
    // The block's refinement rows follow each other too, in the order of their boundaries.
    int r0 = firstAtLeast(plan.proresOwner, 0, plan.proresOwner.length, first);
    int r1 = firstAtLeast(plan.proresOwner, r0, plan.proresOwner.length, first + count);
    int p0 = s.prores.addCopies(prores, r0, r1 - r0);
    for (int r = r0; r < r1; r++) {
      int p = p0 + r - r0;
      int var = move(prores, r, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
      int fine = move(prores, r, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
      s.prores.moveCopy(p, var, fine, 0);
      s.proresOwner.add(index + plan.proresOwner[r] - first);
      s.subsets[subset(prores.ints[BoundaryTable.OP * prores.size + r])].add(p);
    }
    return index + count;
  }

  /** The plan of the partition that held old block {@code oldLid}, or null. */
  private Plan planOf(int container, boolean sender, int oldLid) {
    for (Plan p : plans.get(container).get(sender ? 1 : 0)) {
      if (oldLid >= p.firstBlock() && oldLid < p.firstBlock() + p.numBlocks()) {
        return p;
      }
    }
    return null;
  }

  /** The first index in {@code [from, to)} of ascending {@code values} at {@code value} or more. */
  private static int firstAtLeast(int[] values, int from, int to, int value) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[mid] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The buffer subset a refinement row of operation {@code op} belongs to. */
  private static int subset(int op) {
    return switch (op) {
      case BoundaryOp.RESTRICT -> BvarsSubCache.RESTRICTION;
      case BoundaryOp.PROLONGATE -> BvarsSubCache.PROLONGATION;
      default -> BvarsSubCache.INTERNAL_PROLONGATION;
    };
  }

  /**
   * Column {@code column} (an arena offset) of row {@code row}, moved from old block {@code
   * oldBlock} to block {@code newBlock} of {@code now}: the same place in the same instance. A
   * fine offset of a row that does not refine is left as it is (0). {@code s} keeps the instance
   * found last, the first one tried next.
   */
  private int move(BoundaryTable t, int row, int column, int oldBlock, ArenaLayout now,
      int newBlock, CacheBuildScratch s) {
    int offset = t.ints[column * t.size + row];
    if (column == BoundaryTable.FINE_OFFSET
        && !BoundaryOp.usesFine(t.ints[BoundaryTable.OP * t.size + row])) {
      return offset;
    }
    // A block's rows lie mostly in one instance or two: try the last one found first.
    int last = s.lastMovedInstance;
    if (last < layout.numInstances() && inInstance(offset, last, oldBlock)) {
      return now.offset(last, newBlock) + offset - layout.offset(last, oldBlock);
    }
    for (int inst = 0; inst < layout.numInstances(); inst++) {
      if (inInstance(offset, inst, oldBlock)) {
        s.lastMovedInstance = inst;
        return now.offset(inst, newBlock) + offset - layout.offset(inst, oldBlock);
      }
    }
    throw new IllegalStateException("an old plan's offset lies in none of its block's instances:"
        + " offset=" + offset + " block=" + oldBlock);
  }

  /** Whether instance {@code inst} of old block {@code oldBlock} holds index {@code offset}. */
  private boolean inInstance(int offset, int inst, int oldBlock) {
    int start = layout.offset(inst, oldBlock);
    return start >= 0 && offset >= start && offset < start + layout.blockLength(inst);
  }
}
