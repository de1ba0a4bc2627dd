package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.geometry.TopologicalElement;

class MetadataTest {

  private static String misuse(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void givenRefinementOps_thenParthenonsDefaultsUnlessRegisteredAndTothAndRoeOnlyOnFaces() {
    assertEquals(RefinementOps.DEFAULT, Metadata.of(Metadata.CELL).refinementOps());
    assertEquals(RefinementOps.InternalProlongation.AVERAGE,
        Metadata.of(Metadata.FACE).refinementOps().internal());
    RefinementOps tothAndRoe =
        RefinementOps.DEFAULT.withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE);
    Metadata b = Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .refinementOps(tothAndRoe).build();
    assertEquals(tothAndRoe, b.refinementOps());
    assertEquals(tothAndRoe, b.toBuilder().build().refinementOps());
    assertNotEquals(Metadata.of(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST), b);
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL).refinementOps(tothAndRoe).build())
        .contains("Toth and Roe's internal prolongation needs FACE topology"));
  }

  @Test
  void givenEachTopology_thenItsElementsAreParthenonsInStorageOrder() {
    assertEquals(List.of(TopologicalElement.CC), Metadata.of(Metadata.CELL).elements());
    assertEquals(List.of(TopologicalElement.CC), Metadata.of(Metadata.NONE).elements());
    assertEquals(List.of(TopologicalElement.F1, TopologicalElement.F2, TopologicalElement.F3),
        Metadata.of(Metadata.FACE).elements());
    assertEquals(List.of(TopologicalElement.E1, TopologicalElement.E2, TopologicalElement.E3),
        Metadata.of(Metadata.EDGE).elements());
    assertEquals(List.of(TopologicalElement.NN), Metadata.of(Metadata.NODE).elements());
    int[] index = new int[TopologicalElement.values().length];
    for (TopologicalElement el : TopologicalElement.values()) {
      index[el.ordinal()] = el.elementIndex();
    }
    assertArrayEquals(new int[] {0, 0, 1, 2, 0, 1, 2, 0}, index, "Parthenon's el % 3");
  }

  @Test
  void givenNoGroupFlags_thenParthenonDefaultsAreSet() {
    Metadata m = Metadata.of(Metadata.RESTART);
    assertEquals(MetadataFlag.NONE, m.topology());
    assertEquals(MetadataFlag.PROVIDES, m.role());
    assertTrue(m.isSet(Metadata.DERIVED));
    assertFalse(m.isMeshTied());
    assertEquals(1, m.numComponents());
    assertArrayEquals(new int[0], m.shape());
    assertEquals(0.0, m.defaultValue());
  }

  @Test
  void givenShapeAndLabels_thenComponentsAreTheProduct() {
    Metadata v = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.VECTOR)
        .shape(3).componentLabels("vx", "vy", "vz").build();
    assertEquals(3, v.numComponents());
    assertEquals(List.of("vx", "vy", "vz"), v.componentLabels());
    Metadata t = Metadata.builder(Metadata.CELL, Metadata.TENSOR).shape(2, 3).build();
    assertEquals(6, t.numComponents());
  }

  @Test
  void givenTwoFlagsOfOneGroup_thenTheConflictIsNamed() {
    assertEquals("metadata flags [INDEPENDENT, DERIVED] are exclusive: give at most one evolution"
        + " flag of [INDEPENDENT, DERIVED]",
        misuse(() -> Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.DERIVED)));
    assertTrue(misuse(() -> Metadata.of(Metadata.CELL, Metadata.NODE)).contains("topology"));
    assertTrue(misuse(() -> Metadata.of(Metadata.PRIVATE, Metadata.REQUIRES)).contains("role"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.VECTOR, Metadata.TENSOR).shape(3).build())
        .contains("tensor shape"));
  }

  @Test
  void givenShapesThatDoNotFit_thenMisuseIsReported() {
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL).shape(2, 0).build())
        .startsWith("invalid metadata: every shape dimension must be at least 1"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL).shape(1, 1, 1, 1).build())
        .contains("at most 3 shape dimensions"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL, Metadata.VECTOR).shape(3, 3).build())
        .contains("VECTOR needs a shape of one dimension"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL, Metadata.TENSOR).shape(3).build())
        .contains("TENSOR needs a shape of two dimensions"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL).shape(3).componentLabels("a", "b")
        .build()).contains("labels=2, components=3"));
  }

  @Test
  void givenFluxesOrThresholdsWithoutTheirPrerequisite_thenMisuseIsReported() {
    assertTrue(misuse(() -> Metadata.of(Metadata.WITH_FLUXES))
        .contains("WITH_FLUXES needs CELL or FACE topology"));
    assertTrue(misuse(() -> Metadata.of(Metadata.EDGE, Metadata.WITH_FLUXES))
        .contains("WITH_FLUXES needs CELL or FACE topology"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL).sparseThresholds(1, 0, 0).build())
        .contains("sparse thresholds need the SPARSE flag"));
    assertTrue(misuse(() -> Metadata.builder(Metadata.CELL, Metadata.SPARSE)
        .sparseThresholds(1e-10, 1e-8, 0).build()).contains("must not exceed"));
  }

  @Test
  void givenSparseThresholds_thenTheyAreKept() {
    Metadata m = Metadata.builder(Metadata.CELL, Metadata.SPARSE)
        .sparseThresholds(1e-6, 1e-7, -1.0).build();
    assertEquals(1e-6, m.allocationThreshold());
    assertEquals(1e-7, m.deallocationThreshold());
    assertEquals(-1.0, m.defaultValue());
    Metadata defaults = Metadata.of(Metadata.CELL, Metadata.SPARSE);
    assertEquals(Metadata.DEFAULT_ALLOCATION_THRESHOLD, defaults.allocationThreshold());
    assertEquals(Metadata.DEFAULT_DEALLOCATION_THRESHOLD, defaults.deallocationThreshold());
  }

  @Test
  void givenRoleFlags_thenStageCopiesAndRefinementFollowParthenon() {
    assertTrue(Metadata.of(Metadata.CELL, Metadata.INDEPENDENT).hasStageCopies());
    assertFalse(Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.ONE_COPY)
        .hasStageCopies());
    assertFalse(Metadata.of(Metadata.CELL, Metadata.DERIVED).hasStageCopies());
    assertTrue(Metadata.of(Metadata.CELL, Metadata.INDEPENDENT).isRefined());
    assertTrue(Metadata.of(Metadata.CELL, Metadata.FILL_GHOST).isRefined());
    assertTrue(Metadata.of(Metadata.CELL, Metadata.FORCE_REMESH_COMM).isRefined());
    assertFalse(Metadata.of(Metadata.CELL, Metadata.DERIVED).isRefined());
  }

  @Test
  void givenLabelsThatDiffer_thenCompatibleButNotEqual() {
    Metadata a = Metadata.builder(Metadata.CELL).shape(2).componentLabels("x", "y").build();
    Metadata b = Metadata.builder(Metadata.CELL).shape(2).build();
    assertTrue(a.compatible(b));
    assertNotEquals(a, b);
    assertEquals(a, a.toBuilder().build());
    assertEquals(a.hashCode(), a.toBuilder().build().hashCode());
    assertFalse(a.compatible(Metadata.builder(Metadata.CELL).shape(3).build()));
    assertFalse(b.compatible(Metadata.builder(Metadata.CELL, Metadata.RESTART).shape(2).build()));
  }

  @Test
  void givenQueries_thenAnyAllAndToStringDescribeFlags() {
    Metadata m = Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST);
    assertTrue(m.allSet(Metadata.CELL, Metadata.FILL_GHOST));
    assertFalse(m.allSet(Metadata.CELL, Metadata.SPARSE));
    assertTrue(m.anySet(Metadata.SPARSE, Metadata.FILL_GHOST));
    assertFalse(m.anySet(Metadata.SPARSE, Metadata.RESTART));
    assertEquals("Metadata[CELL, PROVIDES, INDEPENDENT, FILL_GHOST shape=[]]", m.toString());
  }
}
