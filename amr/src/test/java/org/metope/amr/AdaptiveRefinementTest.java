package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.DriverError;
import org.metope.mesh.Mesh;
import org.metope.mesh.SteadyAllocation;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.InputError;

class AdaptiveRefinementTest {
  private final AmrFixtures.Tags tags = new AmrFixtures.Tags();
  private final AmrFixtures.NoExchange exchange = new AmrFixtures.NoExchange();

  private AdaptiveRefinement amr(String deck, String... overrides) {
    var pin = AmrFixtures.pin(deck, overrides);
    Mesh mesh = AmrFixtures.mesh(pin, AmrFixtures.toy(tags), InProcessCluster.singleRank());
    return AdaptiveRefinement.fromInput(pin, mesh, exchange);
  }

  private AdaptiveRefinement amr() {
    return amr(AmrFixtures.deck2d(32, 8, 3, ""));
  }

  private static Mesh meshOf(AdaptiveRefinement amr) {
    return amr.tagging().mesh();
  }

  private static void tagAll(Mesh mesh) {
    for (MeshData md : mesh.meshData("base")) {
      mesh.refinement().tag(md);
    }
  }

  @Test
  void givenNoBlockChanges_thenNothingIsRebuiltOrCalled() {
    AdaptiveRefinement amr = amr();
    Mesh mesh = meshOf(amr);
    assertSame(amr, mesh.refinement());
    AtomicInteger calls = new AtomicInteger();
    tagAll(mesh);

    assertFalse(amr.loadBalancingAndAdaptiveMeshRefinement(calls::incrementAndGet));

    assertFalse(amr.modified());
    assertEquals(0, calls.get());
    assertEquals(0, exchange.setups);
    assertEquals(new AdaptiveRefinement.Statistics(0, 0, 0, 0, 0.0), amr.statistics());
  }

  @Test
  void givenARefineTag_thenTheOldPartitionsAreDroppedBeforeNewStorageAndGhostsAreFilled() {
    AdaptiveRefinement amr = amr();
    Mesh mesh = meshOf(amr);
    FieldStorage before = mesh.fields();
    tags.byLocation.put(new LogicalLocation(2, 1, 1, 0), AmrTag.REFINE_VALUE);
    tagAll(mesh);
    amr.startLoop();
    FieldStorage[] seen = new FieldStorage[1];

    assertTrue(amr.loadBalancingAndAdaptiveMeshRefinement(() -> seen[0] = mesh.fields()));

    assertSame(before, seen[0]);
    assertNotSame(before, mesh.fields());
    assertTrue(amr.modified());
    assertEquals(19, mesh.totalBlocks());
    assertEquals(1, exchange.releases);
    assertEquals(1, exchange.setups);
    assertEquals(1, exchange.fills);
    AdaptiveRefinement.Statistics stats = amr.statistics();
    assertEquals(3, stats.created());
    assertEquals(1, stats.remeshes());
    assertEquals(0, stats.startupRemeshes());
    assertTrue(stats.remeshSeconds() > 0);
  }

  @Test
  void givenChildrenThatKeepAskingToDerefine_thenTheyMergeAfterDerefineCountCycles() {
    AdaptiveRefinement amr = amr(AmrFixtures.deck2d(32, 8, 3, ""),
        "parthenon/mesh/derefine_count=2");
    Mesh mesh = meshOf(amr);
    tags.byLocation.put(new LogicalLocation(2, 1, 1, 0), AmrTag.REFINE_VALUE);
    tagAll(mesh);
    amr.loadBalancingAndAdaptiveMeshRefinement();
    tags.byLocation.clear();
    tags.otherwise = AmrTag.DEREFINE_VALUE;

    tagAll(mesh);
    assertFalse(amr.loadBalancingAndAdaptiveMeshRefinement());
    tagAll(mesh);
    assertTrue(amr.loadBalancingAndAdaptiveMeshRefinement());

    assertEquals(16, mesh.totalBlocks());
    assertEquals(new AdaptiveRefinement.Statistics(3, 3, 0, 2, 0.0), amr.statistics());
  }

  @Test
  void givenEveryBlockAskingToRefine_thenStartUpRefinesUntilTheMeshStopsChangingWithAWarning() {
    AdaptiveRefinement amr = amr();
    Mesh mesh = meshOf(amr);
    tags.otherwise = AmrTag.REFINE_VALUE;

    int[] replaced = new int[1];
    Runnable beforeReplace = () -> replaced[0]++;
    assertTrue(amr.initialRefinementStep(16, beforeReplace));
    assertEquals(64, mesh.totalBlocks());
    assertTrue(amr.initialRefinementStep(16, beforeReplace));
    assertEquals(256, mesh.totalBlocks());
    assertFalse(amr.initialRefinementStep(16, beforeReplace));
    assertEquals(2, replaced[0], "the hook runs before each replacement, not when nothing changes");

    assertEquals(2, amr.statistics().startupRemeshes());
    assertEquals(List.of("the number of MeshBlocks increased more than twice during"
        + " initialization (16 to 64); more computing power than you expected may be required",
        "the number of MeshBlocks increased more than twice during initialization (16 to 256);"
        + " more computing power than you expected may be required"), amr.warnings());
  }

  @Test
  void givenABadDerefineCount_thenOneLineNamingIt() {
    InputError e = assertThrows(InputError.class,
        () -> amr(AmrFixtures.deck2d(32, 8, 3, ""), "parthenon/mesh/derefine_count=0"));
    assertTrue(e.getMessage().contains("derefine_count"), e.getMessage());
  }

  @Test
  void givenMergedStaticRefinementLeavingARankWithoutBlocks_thenEveryRankStopsWithOneLine() {
    String deck = AmrFixtures.deck2d(16, 8, 3, "<parthenon/static_refinement0>\n"
        + "x1min = 0.1\nx1max = 0.2\nx2min = 0.1\nx2max = 0.2\nlevel = 1\n")
        + "<parthenon/mesh>\nderefine_count = 1\n";
    AtomicInteger stopped = new AtomicInteger();
    InProcessRun.run(5, comm -> {
      AmrFixtures.Tags derefine = new AmrFixtures.Tags();
      derefine.otherwise = AmrTag.DEREFINE_VALUE;
      var pin = AmrFixtures.pin(deck);
      Mesh mesh = AmrFixtures.mesh(pin, AmrFixtures.toy(derefine), comm);
      assertEquals(7, mesh.totalBlocks());
      AdaptiveRefinement amr = AdaptiveRefinement.fromInput(pin, mesh,
          new AmrFixtures.NoExchange());
      tagAll(mesh);
      DriverError e = assertThrows(DriverError.class,
          amr::loadBalancingAndAdaptiveMeshRefinement);
      assertEquals("too few mesh blocks after a remesh: the mesh has 4 blocks for 5 ranks; every"
          + " rank needs at least one", e.getMessage());
      stopped.incrementAndGet();
    });
    assertEquals(5, stopped.get());
  }

  @Test
  void givenCyclesWhereNoBlockAsksForAChange_thenTaggingAndTheCheckAllocateNothing() {
    AdaptiveRefinement amr = amr();
    Mesh mesh = meshOf(amr);
    tags.otherwise = AmrTag.SAME_VALUE;
    List<MeshData> parts = mesh.meshData("base");
    long allocated = SteadyAllocation.fewestBytes(200, 3, 500, () -> {
      for (int p = 0; p < parts.size(); p++) {
        amr.tag(parts.get(p));
      }
      amr.loadBalancingAndAdaptiveMeshRefinement();
    });
    // One 16-byte object a cycle would be 8,000 bytes in every window.
    assertTrue(allocated < 4096, "allocated " + allocated + " bytes in the quietest 500 cycles");
  }
}
