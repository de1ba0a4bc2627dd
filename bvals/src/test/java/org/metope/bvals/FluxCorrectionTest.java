package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.NeighborBlock;
import org.metope.comm.Communicator;
import org.metope.comm.DirectBufferCommunicator;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;

/**
 * Flux correction on a 2D mesh with a refined middle: every block's x1 and x2 face fluxes hold a
 * linear function of the face centre, plus 100 on the coarse blocks. After the correction, every
 * coarse face shared with finer blocks holds the fine faces' average, which for linear data is
 * the function at the coarse face centre; every other face keeps its value. A {@code FINE} field
 * (twice the block's cells, Parthenon corrects its fluxes the same way) is checked alike.
 */
class FluxCorrectionTest {
  static final String DECK = """
      <parthenon/mesh>
      refinement = static
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
      <parthenon/static_refinement0>
      x1min = 0.4
      x1max = 0.6
      x2min = 0.4
      x2max = 0.6
      level = 1
      """;

  private static double g(int direction, double x, double y) {
    return 0.25 + direction + 3.0 * x - 2.0 * y;
  }

  /**
   * With {@code direct}, the communicators prefer direct message buffers, as the MPI device does,
   * and no flux correction travels in a heap array.
   */
  @ParameterizedTest(name = "{0} ranks, coalesce={1}, fine={2}, direct buffers={3}")
  @CsvSource({"1, true, false, false", "2, true, false, false", "3, true, false, false",
      "2, false, false, false", "3, false, false, false", "1, true, true, false",
      "3, true, true, false", "2, false, true, false", "3, true, false, true",
      "3, false, true, true"})
  void givenCoarseFineFaces_thenCoarseFluxesBecomeTheFineAverages(int ranks, boolean coalesce,
      boolean fine, boolean direct) {
    StateDescriptor pkg = new StateDescriptor("flux");
    pkg.addField("u", fine
        ? Metadata.of(MetadataFlag.CELL, MetadataFlag.FINE, MetadataFlag.INDEPENDENT,
            MetadataFlag.FILL_GHOST, MetadataFlag.WITH_FLUXES)
        : Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT, MetadataFlag.FILL_GHOST,
            MetadataFlag.WITH_FLUXES));
    AtomicLongArray counts = new AtomicLongArray(2); // wrong faces, corrected faces
    InProcessRun.run(ranks, inProcess -> {
      DirectBufferCommunicator buffers = new DirectBufferCommunicator(inProcess);
      Communicator world = direct ? buffers : inProcess;
      try (ExchangeFixture f = new ExchangeFixture(DECK, world, pkg, coalesce)) {
        List<MeshData> parts = f.mesh.meshData("base");
        for (MeshData md : parts) {
          fill(md, fine);
        }
        TaskCollection tc = new TaskCollection();
        TaskRegion region = tc.addRegion(parts.size());
        for (int p = 0; p < parts.size(); p++) {
          MeshData md = parts.get(p);
          TaskList tl = region.get(p);
          TaskId start = tl.addTask(TaskId.NONE, "start",
              () -> f.comm.startReceiveFluxCorrections(md));
          f.comm.addFluxCorrection(start, tl, md);
        }
        tc.execute();
        long[] local = new long[2];
        for (MeshData md : parts) {
          check(md, fine, local);
        }
        long bufferMessages = world.allreduce(buffers.counts().bufferMessages(), ReduceOp.SUM);
        if (direct) {
          assertEquals(0, buffers.counts().arrayMessages(), "messages of heap arrays");
          assertTrue(bufferMessages > 0, "messages of message buffers on all ranks");
        }
        long wrong = world.allreduce(local[0], ReduceOp.SUM);
        long corrected = world.allreduce(local[1], ReduceOp.SUM);
        if (world.rank() == 0) {
          counts.set(0, wrong);
          counts.set(1, corrected);
        }
      }
    });
    assertEquals(0, counts.get(0), "wrong faces");
    // The refined 2x2 root blocks leave a hole of 16 x 16 coarse cells: 4 sides of 16 coarse
    // faces (32 for the fine field), each corrected once from the coarse side.
    assertEquals(fine ? 128 : 64, counts.get(1));
  }

  /** Extent of a block's flux arrays along i and j: 8 (or 16 fine) cells and 2 ghosts a side. */
  private static int extent(boolean fine) {
    return fine ? 20 : 12;
  }

  private static void fill(MeshData md, boolean fine) {
    double[] data = md.data();
    int n = extent(fine);
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      double shift = block.loc().level() == block.mesh().rootLevel() ? 100.0 : 0.0;
      UniformCartesian x = fine ? block.fineCoords() : block.coords();
      for (int d = 1; d <= 2; d++) {
        int off = md.fluxOffset(0, d, b);
        for (int j = 0; j < n; j++) {
          for (int i = 0; i < n; i++) {
            double fx = d == 1 ? x.xf(0, i) : x.xc(0, i);
            double fy = d == 2 ? x.xf(1, j) : x.xc(1, j);
            data[off + j * n + i] = g(d, fx, fy) + shift;
          }
        }
      }
    }
  }

  /** Counts wrong faces into {@code out[0]} and corrected coarse faces into {@code out[1]}. */
  private static void check(MeshData md, boolean fine, long[] out) {
    double[] data = md.data();
    int n = extent(fine);
    int last = n - 2;
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      boolean coarse = block.loc().level() == block.mesh().rootLevel();
      UniformCartesian x = fine ? block.fineCoords() : block.coords();
      for (int d = 1; d <= 2; d++) {
        int off = md.fluxOffset(0, d, b);
        for (int j = 2; j <= last; j++) {
          for (int i = 2; i <= last; i++) {
            boolean isFace = d == 1 ? (j < last) : (i < last);
            if (!isFace) {
              continue;
            }
            double fx = d == 1 ? x.xf(0, i) : x.xc(0, i);
            double fy = d == 2 ? x.xf(1, j) : x.xc(1, j);
            boolean shared = coarse && sharedWithFiner(block, d, d == 1 ? i : j, last);
            double expected = g(d, fx, fy) + (coarse && !shared ? 100.0 : 0.0);
            if (Math.abs(data[off + j * n + i] - expected) > 1e-12) {
              out[0]++;
            }
            if (shared) {
              out[1]++;
            }
          }
        }
      }
    }
  }

  /** Whether face index {@code idx} normal to direction {@code d} is a block face with finer blocks. */
  private static boolean sharedWithFiner(MeshBlock block, int d, int idx, int last) {
    int side = idx == 2 ? -1 : idx == last ? 1 : 0;
    if (side == 0) {
      return false;
    }
    for (NeighborBlock nb : block.neighbors()) {
      if (nb.isFiner() && nb.element().isFace() && nb.element().offset(d - 1) == side) {
        return true;
      }
    }
    return false;
  }
}
