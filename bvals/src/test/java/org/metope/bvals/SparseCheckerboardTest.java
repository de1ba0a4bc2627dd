package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.comm.Communicator;
import org.metope.comm.DirectBufferCommunicator;
import org.metope.comm.InProcessRun;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;

/**
 * {@code ghost_check} for a sparse field allocated on a checkerboard of blocks: 4 x 4 periodic
 * blocks, the field allocated where {@code lx1 + lx2} is even, each such block's interior holding
 * its own constant. One exchange later every block holds the field (the unallocated ones are
 * allocated on receive, since their face neighbours send data), and every ghost cell is known
 * from its position alone: the constant of the block across that boundary if that block was
 * allocated, else the field's default. Diagonal neighbours share a colour, face neighbours do not,
 * so both kinds of ghost occur on every block. The negative control runs the same check on the
 * field allocated everywhere, where every ghost facing a block off the checkerboard must disagree:
 * the face ghosts of the blocks on it and the corner ghosts of the blocks off it. The same holds
 * for a {@code FINE} sparse field (twice the block's cells, the same ghosts).
 */
class SparseCheckerboardTest {
  private static final int BLOCKS = 4;
  private static final int CELLS = 8;
  private static final double DEFAULT = -0.5;
  private static final double STALE_GHOST = 99.0;

  private static final String DECK = """
      <parthenon/mesh>
      refinement = none
      pack_size = 3
      nx1 = 32
      x1min = 0
      x1max = 1
      ix1_bc = periodic
      ox1_bc = periodic
      nx2 = 32
      x2min = 0
      x2max = 1
      ix2_bc = periodic
      ox2_bc = periodic
      nx3 = 1
      x3min = 0
      x3max = 1
      <parthenon/meshblock>
      nx1 = 8
      nx2 = 8
      nx3 = 1
      """;

  /** The outcome of one run: ghost cells checked, wrong ones, blocks unallocated at the end. */
  private record Count(long ghosts, long wrong, long unallocated) {}

  /**
   * With {@code direct}, the communicators prefer direct message buffers, as the MPI device does:
   * null messages, probes and sparse allocation on receive take them too, and no message travels
   * in a heap array.
   */
  @ParameterizedTest(name = "{0} ranks, coalesce={1}, FINE={2}, direct buffers={3}")
  @CsvSource({"1, true, false, false", "2, true, false, false", "2, false, false, false",
      "3, true, false, false", "3, false, false, false", "1, true, true, false",
      "2, true, true, false", "3, false, true, false", "2, true, false, true",
      "3, false, false, true"})
  void givenACheckerboardOfAllocatedBlocks_thenGhostsHoldNeighbourValuesOrTheDefault(int ranks,
      boolean coalesce, boolean fine, boolean direct) {
    Count c = run(ranks, coalesce, false, fine, direct);
    int ng = nghost();
    long n = fine ? 2L * CELLS : CELLS;
    assertEquals(BLOCKS * BLOCKS * ((n + 2L * ng) * (n + 2L * ng) - n * n),
        c.ghosts(), "every ghost cell of every block checked");
    assertEquals(0, c.wrong(), "wrong ghost cells");
    assertEquals(0, c.unallocated(), "blocks that received data but were not allocated");
  }

  @ParameterizedTest(name = "{0} ranks, coalesce={1}, FINE={2}")
  @CsvSource({"1, true, false", "2, true, false", "2, false, false", "2, true, true"})
  void givenTheFieldAllocatedEverywhere_thenExactlyTheGhostsFacingOffBlocksDisagree(int ranks,
      boolean coalesce, boolean fine) {
    Count c = run(ranks, coalesce, true, fine, false);
    int ng = nghost();
    long faceGhosts = 4L * (fine ? 2 * CELLS : CELLS) * ng;
    long cornerGhosts = 4L * ng * ng;
    int half = BLOCKS * BLOCKS / 2;
    assertEquals(half * faceGhosts + half * cornerGhosts, c.wrong());
  }

  private static int nghost() {
    int[] ng = new int[1];
    InProcessRun.run(1, world -> {
      try (ExchangeFixture f = new ExchangeFixture(DECK, world, pool(false))) {
        ng[0] = f.mesh.nghost();
      }
    });
    assertTrue(ng[0] >= 1, "ghosts: " + ng[0]);
    return ng[0];
  }

  /** The pool of one sparse field, {@code FINE} (twice the block's cells) when {@code fine}. */
  private static StateDescriptor pool(boolean fine) {
    StateDescriptor pkg = new StateDescriptor("checkerboard");
    Metadata.Builder m = fine
        ? Metadata.builder(MetadataFlag.CELL, MetadataFlag.FINE, MetadataFlag.INDEPENDENT,
            MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE)
        : Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
            MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE);
    pkg.addSparsePool("s", m.sparseThresholds(1e-3, 1e-4, DEFAULT).build(), 0);
    return pkg;
  }

  private static boolean onCheckerboard(long lx1, long lx2) {
    return Math.floorMod(lx1 + lx2, 2) == 0;
  }

  /** The constant of the block at {@code (lx1, lx2)}; far from the default and the thresholds. */
  private static double constant(long lx1, long lx2) {
    return 10.0 + lx1 + BLOCKS * lx2;
  }

  private static Count run(int ranks, boolean coalesce, boolean everywhere, boolean fine,
      boolean direct) {
    AtomicLong ghosts = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    AtomicLong unallocated = new AtomicLong();
    InProcessRun.run(ranks, inProcess -> {
      DirectBufferCommunicator buffers = new DirectBufferCommunicator(inProcess);
      Communicator world = direct ? buffers : inProcess;
      try (ExchangeFixture f = new ExchangeFixture(DECK, world, pool(fine), coalesce)) {
        for (MeshData md : f.mesh.meshData("base")) {
          for (int b = 0; b < md.numBlocks(); b++) {
            LogicalLocation loc = md.block(b).loc();
            if (everywhere || onCheckerboard(loc.lx1(), loc.lx2())) {
              md.storage().allocateSparse(0, md.blockIndex(b));
              // Ghosts start at a value no rule gives, so a default must be written, not left.
              fill(md, b, IndexDomain.ENTIRE, STALE_GHOST);
              fill(md, b, IndexDomain.INTERIOR, constant(loc.lx1(), loc.lx2()));
            }
          }
        }
        f.exchange.execute();
        if (direct) {
          assertEquals(0, buffers.counts().arrayMessages(), "messages of heap arrays");
          assertTrue(buffers.counts().bufferMessages() > 0, "messages of message buffers");
        }
        for (MeshData md : f.mesh.meshData("base")) {
          for (int b = 0; b < md.numBlocks(); b++) {
            if (!md.isAllocated(0, b)) {
              unallocated.incrementAndGet();
              continue;
            }
            checkGhosts(md, b, ghosts, wrong);
          }
        }
      }
    });
    return new Count(ghosts.get(), wrong.get(), unallocated.get());
  }

  /** The index space of the field on block {@code b}: the block's cells, or its FINE cells. */
  private static IndexShape cells(MeshData md, int b) {
    return md.state().field(0).metadata().isFine() ? md.block(b).fineCellBounds()
        : md.block(b).cellBounds();
  }

  private static void fill(MeshData md, int b, IndexDomain domain, double value) {
    IndexShape cells = cells(md, b);
    IndexRange ib = cells.boundsI(domain);
    IndexRange jb = cells.boundsJ(domain);
    for (int j = jb.s(); j <= jb.e(); j++) {
      for (int i = ib.s(); i <= ib.e(); i++) {
        md.data()[md.index(0, b, 0, 0, j, i)] = value;
      }
    }
  }

  /** Counts the ghost cells of block {@code b} and those that hold another value than expected. */
  private static void checkGhosts(MeshData md, int b, AtomicLong ghosts, AtomicLong wrong) {
    IndexShape cells = cells(md, b);
    IndexRange ib = cells.boundsI(IndexDomain.INTERIOR);
    IndexRange jb = cells.boundsJ(IndexDomain.INTERIOR);
    IndexRange ie = cells.boundsI(IndexDomain.ENTIRE);
    IndexRange je = cells.boundsJ(IndexDomain.ENTIRE);
    LogicalLocation loc = md.block(b).loc();
    for (int j = je.s(); j <= je.e(); j++) {
      for (int i = ie.s(); i <= ie.e(); i++) {
        int o1 = i < ib.s() ? -1 : i > ib.e() ? 1 : 0;
        int o2 = j < jb.s() ? -1 : j > jb.e() ? 1 : 0;
        if (o1 == 0 && o2 == 0) {
          continue;
        }
        long n1 = Math.floorMod(loc.lx1() + o1, BLOCKS);
        long n2 = Math.floorMod(loc.lx2() + o2, BLOCKS);
        double expected = onCheckerboard(n1, n2) ? constant(n1, n2) : DEFAULT;
        ghosts.incrementAndGet();
        if (md.data()[md.index(0, b, 0, 0, j, i)] != expected) {
          wrong.incrementAndGet();
        }
      }
    }
  }
}
