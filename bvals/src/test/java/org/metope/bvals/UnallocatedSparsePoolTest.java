package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.UniformCartesian;

/**
 * A ghost-filled sparse pool that no block ever allocates must not change any other field: after
 * the same exchanges, every cell (ghosts included) of a dense field is bit-identical with and
 * without the pool. Unallocated fields used to take part in restriction and prolongation at arena
 * offset 0, which is the dense field's first block.
 */
class UnallocatedSparsePoolTest {
  private static final String STATIC_2D = FluxCorrectionTest.DECK;

  /**
   * The 2D mesh under adaptive refinement: the same two levels, built as an adaptive mesh
   * (coarse buffers everywhere, {@code numlevel} deeper than the levels in use).
   */
  private static final String ADAPTIVE_2D = FluxCorrectionTest.DECK
      .replace("refinement = static", "refinement = adaptive\nnumlevel = 3");

  /** The same refinement in 3D, with outflow boundaries. */
  private static final String STATIC_3D = """
      <parthenon/mesh>
      refinement = static
      nx1 = 16
      x1min = 0
      x1max = 1
      ix1_bc = outflow
      ox1_bc = outflow
      nx2 = 16
      x2min = 0
      x2max = 1
      ix2_bc = outflow
      ox2_bc = outflow
      nx3 = 16
      x3min = 0
      x3max = 1
      ix3_bc = outflow
      ox3_bc = outflow
      <parthenon/meshblock>
      nx1 = 8
      nx2 = 8
      nx3 = 8
      <parthenon/static_refinement0>
      x1min = 0.4
      x1max = 0.6
      x2min = 0.4
      x2max = 0.6
      x3min = 0.4
      x3max = 0.6
      level = 1
      """;

  /** {@code dim} -2 is the adaptive 2D mesh. */
  @ParameterizedTest(name = "{0}D, {1} ranks, coalesce={2}")
  @CsvSource({"2, 1, true", "2, 2, true", "2, 2, false", "3, 1, true", "3, 2, false",
      "-2, 1, true", "-2, 2, true", "-2, 2, false"})
  void givenAnUnallocatedGhostFilledPool_thenOtherFieldsAreBitIdentical(int dim, int ranks,
      boolean coalesce) {
    String deck = dim == 2 ? STATIC_2D : dim == -2 ? ADAPTIVE_2D : STATIC_3D;
    Map<Integer, double[]> without = run(deck, ranks, coalesce, false);
    Map<Integer, double[]> with = run(deck, ranks, coalesce, true);
    for (Map.Entry<Integer, double[]> e : without.entrySet()) {
      assertArrayEquals(e.getValue(), with.get(e.getKey()), "block gid=" + e.getKey());
    }
  }

  @org.junit.jupiter.api.Test
  void givenAnUnallocatedFieldOrNoFluxes_thenOffsetAccessorsThrowNamingFieldAndBlock() {
    StateDescriptor pkg = new StateDescriptor("isolation");
    pkg.addField("u", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 3);
    try (ExchangeFixture f = new ExchangeFixture(STATIC_2D, InProcessCluster.singleRank(), pkg)) {
      MeshData md = f.mesh.meshData("base").get(0);
      int sparse = md.state().fieldId("s_3");
      String gid = "block=" + md.block(0).gid();
      var unallocated = org.junit.jupiter.api.Assertions.assertThrows(
          IllegalStateException.class, () -> md.dataOffset(sparse, 0));
      org.junit.jupiter.api.Assertions.assertTrue(unallocated.getMessage().contains("field=s_3")
          && unallocated.getMessage().contains(gid), unallocated.getMessage());
      org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
          () -> md.coarseOffset(sparse, 0));
      var noFluxes = org.junit.jupiter.api.Assertions.assertThrows(
          IllegalStateException.class, () -> md.fluxOffset(0, 1, 0));
      org.junit.jupiter.api.Assertions.assertTrue(noFluxes.getMessage().contains("field=u"),
          noFluxes.getMessage());
      md.storage().allocateSparse(sparse, md.blockIndex(0));
      org.junit.jupiter.api.Assertions.assertTrue(md.dataOffset(sparse, 0) >= 0);
    }
  }

  /** Every block's {@code u} values (ghosts included) after three exchanges, by gid. */
  private static Map<Integer, double[]> run(String deck, int ranks, boolean coalesce,
      boolean withPool) {
    StateDescriptor pkg = new StateDescriptor("isolation");
    pkg.addField("u", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST));
    if (withPool) {
      pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
          MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 3, 8);
    }
    Map<Integer, double[]> values = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, world -> {
      try (ExchangeFixture f = new ExchangeFixture(deck, world, pkg, coalesce)) {
        for (MeshData md : f.mesh.meshData("base")) {
          fill(md);
        }
        for (int step = 0; step < 3; step++) {
          f.exchange.execute();
        }
        for (MeshData md : f.mesh.meshData("base")) {
          for (int b = 0; b < md.numBlocks(); b++) {
            if (withPool) {
              for (int field = 1; field < md.state().numFields(); field++) {
                assertFalse(md.isAllocated(field, b), "pool member allocated");
              }
            }
            values.put(md.block(b).gid(), snapshot(md, b));
          }
        }
      }
    });
    return new TreeMap<>(values);
  }

  /** u = 1 + x + 2 y + 3 z on the interior; ghosts start at NaN-free zero. */
  private static void fill(MeshData md) {
    double[] data = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      UniformCartesian x = block.coords();
      var cells = block.cellBounds();
      var ib = cells.boundsI(org.metope.mesh.geometry.IndexDomain.INTERIOR);
      var jb = cells.boundsJ(org.metope.mesh.geometry.IndexDomain.INTERIOR);
      var kb = cells.boundsK(org.metope.mesh.geometry.IndexDomain.INTERIOR);
      for (int k = kb.s(); k <= kb.e(); k++) {
        for (int j = jb.s(); j <= jb.e(); j++) {
          for (int i = ib.s(); i <= ib.e(); i++) {
            data[md.index(0, b, 0, k, j, i)] =
                1.0 + x.xc(0, i) + 2.0 * x.xc(1, j) + 3.0 * x.xc(2, k);
          }
        }
      }
    }
  }

  private static double[] snapshot(MeshData md, int b) {
    var cells = md.block(b).cellBounds();
    var ib = cells.boundsI(org.metope.mesh.geometry.IndexDomain.ENTIRE);
    var jb = cells.boundsJ(org.metope.mesh.geometry.IndexDomain.ENTIRE);
    var kb = cells.boundsK(org.metope.mesh.geometry.IndexDomain.ENTIRE);
    double[] out = new double[(kb.e() - kb.s() + 1) * (jb.e() - jb.s() + 1)
        * (ib.e() - ib.s() + 1)];
    int n = 0;
    for (int k = kb.s(); k <= kb.e(); k++) {
      for (int j = jb.s(); j <= jb.e(); j++) {
        for (int i = ib.s(); i <= ib.e(); i++) {
          out[n++] = md.data()[md.index(0, b, 0, k, j, i)];
        }
      }
    }
    return out;
  }
}
