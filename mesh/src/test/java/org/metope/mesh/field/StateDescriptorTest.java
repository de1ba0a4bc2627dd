package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StateDescriptorTest {
  private static final Metadata DENSE = Metadata.of(Metadata.CELL, Metadata.INDEPENDENT);
  private static final Metadata SPARSE = Metadata.of(Metadata.CELL, Metadata.SPARSE);

  @Test
  void givenFieldsAndPools_thenDeclarationOrderIsKeptWithIdsAscending() {
    StateDescriptor pkg = new StateDescriptor("adv");
    pkg.addField("advected", DENSE);
    pkg.addSparsePool("tracer", SPARSE, 37, 12);
    pkg.addField("derived", Metadata.of(Metadata.CELL));
    assertEquals(List.of("advected", "tracer", "derived"), pkg.declarationNames());
    assertEquals(List.of("advected", "tracer_12", "tracer_37", "derived"), pkg.fields());
    assertTrue(pkg.fieldPresent("tracer_37"));
    assertFalse(pkg.fieldPresent("tracer"));
    assertTrue(pkg.sparseBaseNamePresent("tracer"));
    assertEquals(SPARSE, pkg.fieldMetadata("tracer_12"));
    assertEquals(DENSE, pkg.fieldMetadata("advected"));
    assertEquals(2, pkg.sparsePool("tracer").size());
  }

  @Test
  void givenDuplicateOrMisdeclaredNames_thenMisuseIsReported() {
    StateDescriptor pkg = new StateDescriptor("adv");
    pkg.addField("rho", DENSE);
    pkg.addSparsePool("s", SPARSE, 3);
    assertEquals("package=adv already declares name=rho",
        assertThrows(IllegalArgumentException.class, () -> pkg.addField("rho", DENSE))
            .getMessage());
    assertEquals("package=adv already declares name=s_3",
        assertThrows(IllegalArgumentException.class, () -> pkg.addField("s_3", DENSE))
            .getMessage());
    pkg.addField("q_1", DENSE);
    assertEquals("package=adv already declares name=q_1", assertThrows(
        IllegalArgumentException.class, () -> pkg.addSparsePool("q", SPARSE, 1)).getMessage());
    assertFalse(pkg.sparseBaseNamePresent("q"));
    assertEquals("package=adv field=x is SPARSE: declare it with addSparsePool",
        assertThrows(IllegalArgumentException.class, () -> pkg.addField("x", SPARSE))
            .getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSparsePool(new SparsePool("empty", SPARSE)));
    assertThrows(IllegalArgumentException.class, () -> pkg.addField("", DENSE));
    assertThrows(IllegalArgumentException.class, () -> pkg.fieldMetadata("nope"));
    assertThrows(IllegalArgumentException.class, () -> pkg.sparsePool("rho"));
    assertThrows(IllegalArgumentException.class, () -> new StateDescriptor("a::b"));
  }

  @Test
  void givenNoCallbacks_thenTheyDoNothingAndAllowAnyStep() {
    StateDescriptor pkg = new StateDescriptor("adv");
    pkg.addField("rho", DENSE);
    MeshData md = Storages.single(pkg, 2).partitions("base", -1).get(0);
    assertEquals(Double.MAX_VALUE, pkg.estimateTimestep(md));
    int[] tags = {AmrTag.SAME_VALUE, AmrTag.SAME_VALUE};
    pkg.checkRefinement(md, tags);
    assertEquals(AmrTag.SAME_VALUE, tags[0]);
    pkg.fillDerived(md);
    pkg.preFillDerived(md);
    pkg.postFillDerived(md);
    pkg.preCommFillDerived(md);
    pkg.initNewlyAllocatedVars(md);
    assertFalse(pkg.hasCheckRefinement());
  }

  @Test
  void givenCallbacks_thenInvokersCallThem() {
    StateDescriptor pkg = new StateDescriptor("adv");
    pkg.addField("rho", DENSE);
    StringBuilder calls = new StringBuilder();
    pkg.setPreCommFillDerived(md -> calls.append("c"));
    pkg.setPreFillDerived(md -> calls.append("p"));
    pkg.setFillDerived(md -> calls.append("f"));
    pkg.setPostFillDerived(md -> calls.append("q"));
    pkg.setInitNewlyAllocatedVars(md -> calls.append("i"));
    pkg.setEstimateTimestep(md -> 0.5 * md.numBlocks());
    pkg.setCheckRefinement((md, tags) -> tags[1] = AmrTag.REFINE_VALUE);
    MeshData md = Storages.single(pkg, 2).partitions("base", -1).get(0);
    pkg.preCommFillDerived(md);
    pkg.preFillDerived(md);
    pkg.fillDerived(md);
    pkg.postFillDerived(md);
    pkg.initNewlyAllocatedVars(md);
    assertEquals("cpfqi", calls.toString());
    assertEquals(1.0, pkg.estimateTimestep(md));
    int[] tags = new int[2];
    pkg.checkRefinement(md, tags);
    assertEquals(AmrTag.REFINE_VALUE, tags[1]);
  }

  @Test
  void givenParamsAndHistory_thenTheyAreKept() {
    StateDescriptor pkg = new StateDescriptor("adv");
    pkg.addParam("cfl", 0.45);
    pkg.addParam("dt", 1.0, Params.Mutability.MUTABLE);
    pkg.updateParam("dt", 2.0);
    assertEquals(0.45, pkg.param("cfl", Double.class));
    assertEquals(2.0, pkg.params().getDouble("dt"));
    HistoryOutput total = HistoryOutput.of(HistoryOutput.Operation.SUM, "total", (md, b) -> 1.0);
    pkg.addHistoryOutput(total);
    assertEquals(List.of(total), pkg.historyOutputs());
    assertEquals("package=adv already has history output label=total",
        assertThrows(IllegalArgumentException.class, () -> pkg.addHistoryOutput(
            HistoryOutput.of(HistoryOutput.Operation.MAX, "total", (md, b) -> 2.0)))
            .getMessage());
  }
}
