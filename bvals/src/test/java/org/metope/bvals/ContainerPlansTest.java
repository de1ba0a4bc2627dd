package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.bvals.channel.BoundaryType;
import org.metope.bvals.channel.PostingOrder;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * A ghost-exchange plan carried over from one stage container's partition to another's over the
 * same blocks ({@link ContainerPlans}) is the plan a build for that partition makes, column for
 * column, on multilevel meshes with cell, face, edge and node fields; the control shows the
 * comparison can fail: the plan of the first container, not moved, differs from it.
 */
class ContainerPlansTest {
  private static StateDescriptor fields() {
    StateDescriptor pkg = new StateDescriptor("plans");
    pkg.addField("q", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build());
    pkg.addField("b", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    return pkg;
  }

  @ParameterizedTest(name = "{0}D")
  @ValueSource(ints = {2, 3})
  void givenTwoContainers_thenTheCarriedOverPlanIsTheBuiltOne(int dims) {
    String deck = dims == 2 ? ElementMultilevelExchangeTest.deck(2, 32, 8, 3)
        : ElementMultilevelExchangeTest.deck(3, 16, 4, 3);
    ParameterInput pin = ParameterInput.parse("plans.in", deck, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), InProcessCluster.singleRank());
    Packages packages = new Packages();
    packages.add(fields());
    mesh.initializeFields(packages, List.of("base", "1"));
    try (KernelBackend backend = KernelBackends.create("jvm", 1)) {
      InOneBoundaryCommunication comm = new InOneBoundaryCommunication(backend,
          PostingOrder.cacheOrder(), SparseConfig.fromInput(pin), true);
      comm.setup(mesh);
      BoundaryCacheBuilder builder = new BoundaryCacheBuilder(comm, comm.caches());
      List<MeshData> base = mesh.meshData("base");
      List<MeshData> other = mesh.meshData("1");
      assertTrue(base.size() > 1, "several partitions: " + base.size());
      int rowsWithFineSide = 0;
      for (int p = 0; p < base.size(); p++) {
        for (boolean sender : new boolean[] {true, false}) {
          BvarsSubCache first = comm.subCache(base.get(p), BoundaryType.ANY, sender);
          BvarsSubCache carried = comm.subCache(other.get(p), BoundaryType.ANY, sender);
          BvarsSubCache built = builder.build(other.get(p), BoundaryType.ANY, sender, null);
          assertSamePlan(built, carried);
          assertFalse(Arrays.equals(built.table.ints, first.table.ints),
              "control: the first container's plan, not moved, is not the second's");
          rowsWithFineSide += built.prores.size;
        }
      }
      assertEquals(2L * base.size(), comm.plansCarriedOver());
      assertTrue(rowsWithFineSide > 0, "the meshes have refinement rows");
    }
  }

  /** Every column, per-boundary array, subset and channel of the two plans is the same. */
  static void assertSamePlan(BvarsSubCache built, BvarsSubCache carried) {
    assertArrayEquals(built.table.ints, carried.table.ints);
    assertArrayEquals(built.table.reals, carried.table.reals);
    assertArrayEquals(built.table.allocated, carried.table.allocated);
    assertArrayEquals(built.prores.ints, carried.prores.ints);
    assertArrayEquals(built.prores.reals, carried.prores.reals);
    assertArrayEquals(built.prores.allocated, carried.prores.allocated);
    assertArrayEquals(built.block, carried.block);
    assertArrayEquals(built.field, carried.field);
    for (int row = 0; row < built.bufferSubsets.length; row++) {
      assertArrayEquals(built.bufferSubsets[row], carried.bufferSubsets[row]);
    }
    for (int b = 0; b < built.size(); b++) {
      assertSame(built.channels.inCacheOrder(b), carried.channels.inCacheOrder(b));
    }
  }
}
