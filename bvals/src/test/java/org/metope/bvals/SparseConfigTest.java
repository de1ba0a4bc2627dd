package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/**
 * The deck's {@code <parthenon/sparse>} settings: its thresholds are the defaults of fields that
 * set none, and {@code enable_sparse = false} makes sparse fields dense.
 */
class SparseConfigTest {
  /** 4 x 2 x 2 periodic blocks of 8^3; block 0 touches 11 others. */
  private static final String DECK = ExchangeFixture.periodic3d(-1).replace("nx1 = 16", "nx1 = 32");

  @ParameterizedTest(name = "deck alloc_threshold={0}, own thresholds={1}: {2} blocks")
  @CsvSource({"1e-12, false, 12", "1e-2, false, 1", "1e-2, true, 12"})
  void givenTheDecksAllocationThreshold_thenItAppliesToFieldsWithoutTheirOwn(double deck,
      boolean own, int expectedAllocated) {
    Metadata.Builder m = Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE);
    if (own) {
      m.sparseThresholds(1e-6, 1e-8, 0.0);
    }
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", m.build(), 7);
    String sparse = "<parthenon/sparse>\nalloc_threshold = " + deck
        + "\ndealloc_threshold = 1e-14\n";
    try (ExchangeFixture f = new ExchangeFixture(DECK + sparse, InProcessCluster.singleRank(),
        pkg)) {
      MeshData md = f.mesh.meshData("base").get(0);
      md.storage().allocateSparse(0, 0);
      fillInterior(md, 1e-3);
      f.exchange.execute();
      assertEquals(expectedAllocated, allocatedBlocks(f.mesh.meshData("base").get(0)));
    }
  }

  @Test
  void givenSparseDisabled_thenEverySparseFieldIsAllocatedEverywhereAndNeverFreed() {
    StateDescriptor pkg = new StateDescriptor("sparse");
    pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 7);
    String off = "<parthenon/sparse>\nenable_sparse = false\ndealloc_count = 1\n";
    try (ExchangeFixture f = new ExchangeFixture(DECK + off, InProcessCluster.singleRank(), pkg)) {
      assertEquals(16, allocatedBlocks(f.mesh.meshData("base").get(0)));
      for (int cycle = 0; cycle < 5; cycle++) {
        f.exchange.execute();
        for (MeshData md : f.mesh.meshData("base")) {
          f.comm.sparseDealloc(md);
        }
      }
      assertEquals(16, allocatedBlocks(f.mesh.meshData("base").get(0)));
    }
    // Negative control: with sparse on, the same all-zero field is freed after dealloc_count.
    String on = "<parthenon/sparse>\ndealloc_count = 1\n";
    try (ExchangeFixture f = new ExchangeFixture(DECK + on, InProcessCluster.singleRank(), pkg)) {
      MeshData md = f.mesh.meshData("base").get(0);
      for (int b = 0; b < md.numBlocks(); b++) {
        md.storage().allocateSparse(0, md.blockIndex(b));
      }
      for (int cycle = 0; cycle < 5; cycle++) {
        f.exchange.execute();
        for (MeshData p : f.mesh.meshData("base")) {
          f.comm.sparseDealloc(p);
        }
      }
      assertEquals(0, allocatedBlocks(f.mesh.meshData("base").get(0)));
    }
  }

  private static void fillInterior(MeshData md, double value) {
    for (int k = 2; k < 10; k++) {
      for (int j = 2; j < 10; j++) {
        for (int i = 2; i < 10; i++) {
          md.data()[md.index(0, 0, 0, k, j, i)] = value;
        }
      }
    }
  }

  private static int allocatedBlocks(MeshData md) {
    int n = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      n += md.isAllocated(0, b) ? 1 : 0;
    }
    assertTrue(n <= md.numBlocks());
    return n;
  }
}
