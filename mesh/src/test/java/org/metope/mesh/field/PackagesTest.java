package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PackagesTest {
  private static final Metadata CELL = Metadata.of(Metadata.CELL, Metadata.INDEPENDENT);
  private static final Metadata VEC = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT)
      .shape(3).build();

  private static Packages of(StateDescriptor... pkgs) {
    Packages packages = new Packages();
    for (StateDescriptor p : pkgs) {
      packages.add(p);
    }
    return packages;
  }

  private static Metadata with(Metadata m, MetadataFlag role) {
    return m.toBuilder().unset(Metadata.PRIVATE, Metadata.PROVIDES, Metadata.REQUIRES,
        Metadata.OVERRIDABLE).set(role).build();
  }

  private static String conflict(Packages packages) {
    return assertThrows(IllegalStateException.class, packages::resolve).getMessage();
  }

  @Test
  void givenSeveralPackages_thenFieldsAreOrderedByPackageThenDeclaration() {
    StateDescriptor hydro = new StateDescriptor("hydro");
    hydro.addField("rho", CELL);
    hydro.addSparsePool("tracer", Metadata.of(Metadata.CELL, Metadata.SPARSE), 9, 2);
    hydro.addField("scratch", with(CELL, Metadata.PRIVATE));
    StateDescriptor grav = new StateDescriptor("gravity");
    grav.addField("phi", CELL);
    grav.addField("rho", with(CELL, Metadata.REQUIRES));
    grav.addField("scratch", with(CELL, Metadata.PRIVATE));
    ResolvedState state = of(hydro, grav).resolve();
    assertEquals(List.of("rho", "tracer_2", "tracer_9", "hydro::scratch", "phi",
        "gravity::scratch"), state.names());
    for (int id = 0; id < state.numFields(); id++) {
      assertEquals(id, state.field(id).id());
      assertEquals(id, state.fieldId(state.field(id).name()));
    }
    FieldInfo t9 = state.field("tracer_9");
    assertEquals("tracer", t9.baseName());
    assertEquals(9, t9.sparseId());
    assertTrue(t9.isSparse());
    assertEquals("hydro", t9.packageName());
    assertEquals(List.of(state.field("tracer_2"), t9), state.sparseFields("tracer"));
    assertEquals(FieldInfo.NO_SPARSE_ID, state.field("rho").sparseId());
    assertEquals("gravity", state.field("gravity::scratch").packageName());
    assertEquals(2, state.fieldsWith(Metadata.SPARSE).size());
  }

  @Test
  void givenTwoProviders_thenTheErrorNamesTheFieldAndBothPackages() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("rho", CELL);
    StateDescriptor b = new StateDescriptor("b");
    b.addField("rho", VEC);
    assertEquals("field rho is provided by both package a (" + CELL + ") and package b (" + VEC
        + "): keep one PROVIDES declaration and make the others REQUIRES, OVERRIDABLE or PRIVATE",
        conflict(of(a, b)));
  }

  @Test
  void givenOverridableFields_thenAProviderWinsElseTheFirstDeclarer() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("v", with(VEC, Metadata.OVERRIDABLE));
    a.addField("w", with(CELL, Metadata.OVERRIDABLE));
    StateDescriptor b = new StateDescriptor("b");
    b.addField("x", CELL);
    b.addField("v", CELL);
    b.addField("w", with(CELL, Metadata.OVERRIDABLE));
    ResolvedState state = of(a, b).resolve();
    assertEquals(List.of("w", "x", "v"), state.names());
    assertEquals("b", state.field("v").packageName());
    assertEquals(1, state.field("v").numComponents());
    assertEquals("a", state.field("w").packageName());
  }

  @Test
  void givenOverridablesThatDisagree_thenTheConflictIsNamed() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("v", with(VEC, Metadata.OVERRIDABLE));
    StateDescriptor b = new StateDescriptor("b");
    b.addField("v", with(CELL, Metadata.OVERRIDABLE));
    assertEquals("field v is declared OVERRIDABLE with conflicting metadata by package a ("
        + with(VEC, Metadata.OVERRIDABLE) + ") and package b (" + with(CELL, Metadata.OVERRIDABLE)
        + "): overridable declarations of one field must agree", conflict(of(a, b)));
  }

  @Test
  void givenARequirementNobodyMeets_thenTheErrorNamesThePackage() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("phi", with(CELL, Metadata.REQUIRES));
    StateDescriptor b = new StateDescriptor("b");
    b.addField("rho", CELL);
    assertEquals("package a requires field phi, but no package provides it (packages: a, b)",
        conflict(of(a, b)));
  }

  @Test
  void givenADenseNameEqualToASparseField_thenBothDeclarationsAreNamed() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("s_3", CELL);
    StateDescriptor b = new StateDescriptor("b");
    b.addSparsePool("s", Metadata.of(Metadata.CELL, Metadata.SPARSE), 3);
    assertEquals("field name s_3 is made twice: by dense field s_3 of package a and by sparse"
        + " pool s of package b", conflict(of(a, b)));
  }

  @Test
  void givenDuplicateOrUnknownPackage_thenMisuseIsReported() {
    Packages packages = of(new StateDescriptor("a"));
    assertThrows(IllegalArgumentException.class, () -> packages.add(new StateDescriptor("a")));
    assertEquals("no package label=z (packages=[a])",
        assertThrows(IllegalArgumentException.class, () -> packages.get("z")).getMessage());
    assertTrue(packages.contains("a"));
    assertEquals("a", packages.get("a").label());
  }

  @Test
  void givenCallbacksInSeveralPackages_thenDriverHelpersCombineThemInPackageOrder() {
    StringBuilder calls = new StringBuilder();
    StateDescriptor a = new StateDescriptor("a");
    a.addField("rho", CELL);
    a.setPreFillDerived(md -> calls.append("a.pre "));
    a.setFillDerived(md -> calls.append("a.fill "));
    a.setPostFillDerived(md -> calls.append("a.post "));
    a.setEstimateTimestep(md -> 0.3);
    a.setCheckRefinement((md, tags) -> {
      tags[0] = AmrTag.SAME_VALUE;
      tags[1] = AmrTag.REFINE_VALUE;
    });
    StateDescriptor b = new StateDescriptor("b");
    b.setPreFillDerived(md -> calls.append("b.pre "));
    b.setFillDerived(md -> calls.append("b.fill "));
    b.setPreCommFillDerived(md -> calls.append("b.comm "));
    b.setInitNewlyAllocatedVars(md -> calls.append("b.init "));
    b.setEstimateTimestep(md -> 0.2);
    b.setCheckRefinement((md, tags) -> tags[2] = AmrTag.SAME_VALUE);
    b.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.MIN, "bmin", (md, k) -> 0));
    a.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.SUM, "asum", (md, k) -> 0));
    Packages packages = of(a, b);
    FieldStorage storage = new FieldStorage(packages.resolve(), new BlockShape(4, 1, 1), null, 4,
        List.of("base"));
    MeshData md = storage.partitions("base", -1).get(0);
    packages.fillDerived(md);
    packages.preCommFillDerived(md);
    packages.initNewlyAllocatedVars(md);
    assertEquals("a.pre b.pre a.fill b.fill a.post b.comm b.init ", calls.toString());
    assertEquals(0.2, packages.estimateTimestep(md));
    int[] tags = new int[5];
    tags[4] = 7;
    packages.checkRefinement(md, tags);
    assertArrayEquals(new int[] {0, 1, 0, -1, 7}, tags);
    assertEquals(List.of("asum", "bmin"),
        packages.historyOutputs().stream().map(HistoryOutput::label).toList());
  }

  @Test
  void givenNoCriterionOrABadTag_thenDerefineOrMisuse() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("rho", CELL);
    Packages packages = of(a);
    MeshData md = new FieldStorage(packages.resolve(), new BlockShape(4, 1, 1), null, 2,
        List.of("base")).partitions("base", -1).get(0);
    int[] tags = {5, 5};
    packages.checkRefinement(md, tags);
    assertArrayEquals(new int[] {-1, -1}, tags);
    assertEquals(Double.MAX_VALUE, packages.estimateTimestep(md));
    a.setCheckRefinement((m, t) -> t[1] = 2);
    assertEquals("package=a wrote tag=2 for block=1; expected -1 (derefine), 0 (same) or 1"
        + " (refine)", assertThrows(IllegalStateException.class,
            () -> packages.checkRefinement(md, tags)).getMessage());
  }

  @Test
  void givenBlockAndPartitionCallbacks_thenTheDispatcherRunsBothInParthenonsOrder() {
    StringBuilder calls = new StringBuilder();
    StateDescriptor a = new StateDescriptor("a");
    a.addField("rho", CELL);
    a.setFillDerived(md -> calls.append("a.fill "));
    a.setFillDerivedBlock((md, b) -> calls.append("a.fill[").append(b).append("] "));
    a.setPostFillDerivedBlock((md, b) -> calls.append("a.post[").append(b).append("] "));
    a.setPreCommFillDerivedBlock((md, b) -> calls.append("a.comm[").append(b).append("] "));
    StateDescriptor b = new StateDescriptor("b");
    b.setPreFillDerivedBlock((md, k) -> calls.append("b.pre[").append(k).append("] "));
    b.setFillDerived(md -> calls.append("b.fill "));
    b.setPostFillDerived(md -> calls.append("b.post "));
    Packages packages = of(a, b);
    MeshData md = new FieldStorage(packages.resolve(), new BlockShape(4, 1, 1), null, 2,
        List.of("base")).partitions("base", -1).get(0);
    packages.fillDerived(md);
    assertEquals("b.pre[0] b.pre[1] a.fill a.fill[0] a.fill[1] b.fill a.post[0] a.post[1] b.post ",
        calls.toString());
    calls.setLength(0);
    packages.preCommFillDerived(md);
    assertEquals("a.comm[0] a.comm[1] ", calls.toString());
  }

  @Test
  void givenBlockEstimatesAndCriteria_thenTheMinimumStepAndTheMaximumTagOverBothLevels() {
    StateDescriptor a = new StateDescriptor("a");
    a.addField("rho", CELL);
    a.setEstimateTimestep(md -> 0.5);
    a.setCheckRefinement((md, tags) -> tags[0] = AmrTag.REFINE_VALUE);
    StateDescriptor b = new StateDescriptor("b");
    b.setEstimateTimestepBlock((md, k) -> k == 2 ? 0.25 : 1.0);
    b.setCheckRefinementBlock((md, k) -> k == 1 ? AmrTag.SAME_VALUE : AmrTag.DEREFINE_VALUE);
    StateDescriptor c = new StateDescriptor("c");
    c.setEstimateTimestepBlock((md, k) -> 0.75);
    Packages packages = of(a, b, c);
    MeshData md = new FieldStorage(packages.resolve(), new BlockShape(4, 1, 1), null, 4,
        List.of("base")).partitions("base", -1).get(0);
    assertEquals(0.25, packages.estimateTimestep(md));
    assertEquals(0.5, a.estimateTimestep(md));
    assertEquals(0.75, c.estimateTimestep(md));
    int[] tags = new int[4];
    packages.checkRefinement(md, tags);
    assertArrayEquals(new int[] {1, 0, -1, -1}, tags);
    assertTrue(b.hasCheckRefinement());
    assertEquals(false, c.hasCheckRefinement());
    c.setCheckRefinementBlock((m, k) -> -2);
    assertEquals("package=c block criterion answered tag=-2 for block=0; expected -1 (derefine),"
        + " 0 (same) or 1 (refine)", assertThrows(IllegalStateException.class,
            () -> packages.checkRefinement(md, tags)).getMessage());
  }
}
