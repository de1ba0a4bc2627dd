package org.metope.bvals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metope.bvals.channel.BoundaryType;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;

/**
 * The ghost-exchange plans ({@link BoundaryType#ANY}, both directions) of a rank's partitions as
 * they were when boundary communication was released for a remesh, so that the plans after it
 * take the rows of blocks that kept their location and neighbours ({@link
 * MeshBlock#previousLid()}) instead of working them out again: such a block's rows differ only
 * in where its data and its channels' buffers now lie. A block at a location its rank held whose
 * neighbourhood changed ({@link MeshBlock#previousNeighbors()}) takes the rows of its boundaries
 * with neighbours in the same place as before and has the others built. A block's rows are its
 * boundaries (every field, every neighbour, in cache order) and their refinement rows; Parthenon
 * builds every plan afresh.
 *
 * <p>Only when every exchanged field is a dense cell field: a sparse field's offsets follow its
 * allocations, and face, edge and node fields' ownership masks depend on which blocks were just
 * refined. Only the plans that were built, not carried over to other containers ({@link
 * ContainerPlans}), since only those are built again. Flux-correction plans are built afresh: a
 * block has few of their rows, and taking them cost as much as building them (JFR, the 2D deck).
 * Holds the old tables, never the old channels or field data; the next {@link
 * BoundaryCaches#release} replaces it.
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
  static PreviousPlans of(Mesh mesh, List<FieldInfo> fields, Map<MeshData, BvarsCache> caches,
      long arenaLayoutVersion) {
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

  /**
   * The old rows for the build of {@code md}'s ghost-exchange plan of one direction, or null
   * when these plans cannot serve it: not made on the block list just before {@code md}'s, or
   * for other fields than {@code ghostFields}.
   */
  Rows rowsFor(MeshData md, boolean sender, List<FieldInfo> ghostFields) {
    boolean serves = md.numBlocks() > 0 && md.block(0).mesh() == mesh
        && mesh.blockGeneration() == generation + 1 && ghostFields.equals(fields)
        && md.container() < plans.size();
    return serves ? new Rows(sender, plans.get(md.container()).get(sender ? 1 : 0)) : null;
  }

  /** The old plans one build takes rows from: of one direction and container. */
  final class Rows {
    private final boolean sender;
    private final List<Plan> plans;

    private Rows(boolean sender, List<Plan> plans) {
      this.sender = sender;
      this.plans = plans;
    }

    /**
     * Adds partition block {@code b}'s boundaries to {@code s}, from the old plan where it has
     * them and through {@code fresh} where it has not (the boundaries with neighbours new to a
     * block whose neighbourhood changed), or does nothing and returns -1 when the old plan has
     * none of them; else returns the index after them. {@code index} is the first boundary's;
     * the rows taken are added to {@code s.relocated}.
     */
    int copyBlock(MeshData md, int b, CacheBuildScratch s, int index,
        InOneBoundaryCommunication comm, BoundaryCacheBuilder.BoundaryVisitor fresh) {
      MeshBlock block = md.block(b);
      boolean kept = block.previousLid() >= 0;
      int oldLid = block.previousLocationLid();
      Plan plan = oldLid < 0 ? null : planOf(plans, oldLid);
      if (plan == null) {
        return -1;
      }
      if (kept) {
        return copyRows(md, b, plan, block.neighbors().size(), s, index, comm);
      }
      List<NeighborBlock> before = block.previousNeighbors();
      int first = before.isEmpty() ? -1 : firstRow(plan, oldLid, before.size());
      // A receiving block's rows restrict into its coarse buffer when it has a coarser
      // neighbour: those rows hold only while that stays so.
      if (first < 0 || hasCoarser(before) != hasCoarser(block.neighbors())) {
        return -1;
      }
      return copyMatching(md, b, plan, first, s, index, comm, fresh);
    }

    /**
     * The first of old block {@code oldLid}'s rows in {@code plan}, checked to be the fields
     * times {@code neighbours} rows of that block in field order, or -1.
     */
    private int firstRow(Plan plan, int oldLid, int neighbours) {
      int count = fields.size() * neighbours;
      int first = firstAtLeast(plan.block, 0, plan.size(), oldLid - plan.firstBlock());
      if (count == 0 || first + count > plan.size()
          || plan.block[first + count - 1] != oldLid - plan.firstBlock()
          || first + count < plan.size() && plan.block[first + count] == plan.block[first]) {
        return -1;
      }
      for (int k = 0; k < count; k++) {
        if (plan.field[first + k] != fields.get(k / neighbours).id()) {
          return -1;
        }
      }
      return first;
    }

    /**
     * {@link #copyBlock} for a block that kept its {@code neighbours} neighbours, whose old block
     * was in {@code plan}: its rows in one copy.
     */
    private int copyRows(MeshData md, int b, Plan plan, int neighbours, CacheBuildScratch s,
        int index, InOneBoundaryCommunication comm) {
      int oldLid = md.block(b).previousLid();
      int count = fields.size() * neighbours;
      int first = firstRow(plan, oldLid, neighbours);
      if (first < 0) {
        return -1;
      }
      int row = s.table.addCopies(plan.table, first, count);
      for (int k = 0; k < count; k++) {
        moveRow(md, b, k / neighbours, k % neighbours, plan, first + k, row + k, oldLid, s,
            comm);
      }
      // The block's refinement rows follow each other too, in the order of their boundaries.
      takeProres(md, b, plan, first, first + count, index - first, oldLid, s);
      s.relocated += count;
      return index + count;
    }

    /**
     * {@link #copyBlock} for a block whose neighbourhood changed, its old block's rows from
     * {@code first} on in {@code plan}: a boundary with a neighbour the old block had at the same
     * place and level takes that boundary's row, the others are built.
     */
    private int copyMatching(MeshData md, int b, Plan plan, int first, CacheBuildScratch s,
        int index, InOneBoundaryCommunication comm, BoundaryCacheBuilder.BoundaryVisitor fresh) {
      MeshBlock block = md.block(b);
      int oldNeighbours = block.previousNeighbors().size();
      int at = index;
      for (int f = 0; f < fields.size(); f++) {
        for (int n = 0; n < block.neighbors().size(); n++) {
          matchBoundary(md, b, f, n, plan, first + f * oldNeighbours, s, at++, comm, fresh);
        }
      }
      return at;
    }

    /**
     * Boundary {@code index} of {@link #copyMatching}, of field {@code f} with neighbour {@code
     * n}: taken from the old block's rows of that field (from {@code fieldFirst} on) where they
     * have it, else built. A method per boundary, so that the JIT compiles it within the first
     * remeshes (a few blocks per remesh have their neighbourhood changed).
     */
    private void matchBoundary(MeshData md, int b, int f, int n, Plan plan, int fieldFirst,
        CacheBuildScratch s, int index, InOneBoundaryCommunication comm,
        BoundaryCacheBuilder.BoundaryVisitor fresh) {
      MeshBlock block = md.block(b);
      int m = sameContact(block.previousNeighbors(), block.neighbors().get(n));
      if (m >= 0) {
        int i = fieldFirst + m;
        int oldLid = block.previousLocationLid();
        moveRow(md, b, f, n, plan, i, s.table.addCopies(plan.table, i, 1), oldLid, s, comm);
        takeProres(md, b, plan, i, i + 1, index - i, oldLid, s);
        s.relocated++;
        return;
      }
      s.atBoundary(b, block, fields.get(f), f, n, block.neighbors().get(n));
      fresh.visit(index, s);
    }

    /**
     * Row {@code i} of {@code plan}, copied to row {@code row} of {@code s.table}: the boundary of
     * field {@code f} with neighbour {@code n} of partition block {@code b}, given its channel,
     * its per-boundary entries and its offsets in the new arena and buffers.
     */
    private void moveRow(MeshData md, int b, int f, int n, Plan plan, int i, int row,
        int oldLid, CacheBuildScratch s, InOneBoundaryCommunication comm) {
      var buffer = comm.valueChannels().channel(md.block(b), f, n, sender);
      s.buffers.add(buffer);
      s.blocks.add(b);
      s.fields.add(fields.get(f).id());
      s.allocated.add(1);
      ArenaLayout now = md.layout();
      int newBlock = md.blockIndex(b);
      int var = move(plan.table, i, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
      int fine = move(plan.table, i, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
      s.table.moveCopy(row, var, fine, buffer.isAllocated() ? buffer.buffer().offset() : 0);
    }

    /**
     * The refinement rows of {@code plan} of old boundaries {@code first} to {@code end - 1},
     * copied to {@code s.prores}, each owned by its old boundary plus {@code shift}.
     */
    private void takeProres(MeshData md, int b, Plan plan, int first, int end, int shift,
        int oldLid, CacheBuildScratch s) {
      int[] owner = plan.proresOwner;
      int from = firstAtLeast(owner, 0, owner.length, first);
      int to = firstAtLeast(owner, from, owner.length, end);
      BoundaryTable prores = plan.prores;
      ArenaLayout now = md.layout();
      int newBlock = md.blockIndex(b);
      int p0 = s.prores.addCopies(prores, from, to - from);
      for (int r = from; r < to; r++) {
        int p = p0 + r - from;
        int var = move(prores, r, BoundaryTable.VAR_OFFSET, oldLid, now, newBlock, s);
        int fine = move(prores, r, BoundaryTable.FINE_OFFSET, oldLid, now, newBlock, s);
        s.prores.moveCopy(p, var, fine, 0);
        s.proresOwner.add(owner[r] + shift);
        s.subsets[subset(prores.ints[BoundaryTable.OP * prores.size + r])].add(p);
      }
    }
  }

  /**
   * The index in {@code before} of the neighbour in the same place as {@code nb}: the same
   * location, as seen from the block, element, half and level; or -1. Gids and ranks may differ.
   */
  private static int sameContact(List<NeighborBlock> before, NeighborBlock nb) {
    for (int m = 0; m < before.size(); m++) {
      NeighborBlock old = before.get(m);
      if (old.element() == nb.element() && old.fi1() == nb.fi1() && old.fi2() == nb.fi2()
          && old.levelDifference() == nb.levelDifference() && old.loc().equals(nb.loc())
          && old.originLoc().equals(nb.originLoc())) {
        return m;
      }
    }
    return -1;
  }

  /** Whether a neighbour of {@code neighbors} is coarser than the block. */
  private static boolean hasCoarser(List<NeighborBlock> neighbors) {
    for (int n = 0; n < neighbors.size(); n++) {
      if (neighbors.get(n).isCoarser()) {
        return true;
      }
    }
    return false;
  }

  /** The plan of {@code list} of the partition that held old block {@code oldLid}, or null. */
  private static Plan planOf(List<Plan> list, int oldLid) {
    for (int i = 0; i < list.size(); i++) {
      Plan p = list.get(i);
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
