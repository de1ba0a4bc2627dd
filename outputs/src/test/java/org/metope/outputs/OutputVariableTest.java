package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;

class OutputVariableTest {
  private static final IndexShape CELLS = new IndexShape(8, 4, 0, 2);

  private static ResolvedState state() {
    StateDescriptor pkg = OutputMeshes.pkg();
    pkg.addField("advected_1", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT)
        .shape(2).componentLabels("1_0", "1_1").build());
    pkg.addField("one", Metadata.builder(Metadata.CELL).shape(1).componentLabels("x").build());
    pkg.addField("t", Metadata.builder(Metadata.CELL).shape(2, 3).build());
    pkg.addField("w", Metadata.builder(Metadata.NONE).shape(4).build());
    Packages packages = new Packages();
    packages.add(pkg);
    return packages.resolve();
  }

  private static List<String> labels(List<OutputVariable> vs) {
    return vs.stream().map(OutputVariable::label).toList();
  }

  @Test
  void givenNamePatterns_thenParthenonsPrefixRegularExpressionsSortedByName() {
    ResolvedState s = state();
    assertEquals(List.of("q", "s_1", "s_2"),
        labels(OutputVariable.selectByName(s, List.of("s", "q"), CELLS, false)));
    assertEquals(List.of("advected_1", "v"),
        labels(OutputVariable.selectByName(s, List.of("adv", "v$"), CELLS, false)));
    assertThrows(IllegalArgumentException.class,
        () -> OutputVariable.selectByName(s, List.of("("), CELLS, false));
  }

  @Test
  void givenARestart_thenEveryIndependentOrRestartField() {
    assertEquals(List.of("advected_1", "q", "s_1", "s_2", "v"),
        labels(OutputVariable.selectForRestart(state(), CELLS, false)));
  }

  /**
   * Parthenon's VarInfo shapes: the element index leads for face and edge fields, then the tensor
   * shape, then the largest element extents (one more than cells along every active axis).
   */
  @Test
  void givenFaceEdgeAndNodeFields_thenParthenonsPaddedShapesWithTheElementsInFront() {
    StateDescriptor pkg = new StateDescriptor("elements");
    pkg.addField("b", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT));
    pkg.addField("e", Metadata.builder(Metadata.EDGE, Metadata.INDEPENDENT).shape(2).build());
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT));
    Packages packages = new Packages();
    packages.add(pkg);
    ResolvedState state = packages.resolve();
    List<OutputVariable> interior = OutputVariable.selectForRestart(state, CELLS, false);
    assertEquals(List.of("b", "e", "n"), interior.stream().map(OutputVariable::label).toList());
    assertArrayEquals(new int[] {3, 1, 5, 9}, interior.get(0).blockDimensions());
    assertArrayEquals(new int[] {3, 2, 1, 5, 9}, interior.get(1).blockDimensions());
    assertArrayEquals(new int[] {1, 5, 9}, interior.get(2).blockDimensions());
    assertEquals(List.of("e_0", "e_1"), interior.get(1).componentNames());
    assertEquals(List.of("Face", "Edge", "Node"),
        interior.stream().map(OutputVariable::topologicalLocation).toList());
    List<OutputVariable> entire = OutputVariable.selectByName(state, List.of("b"), CELLS, true);
    assertArrayEquals(new int[] {3, 1, 9, 13}, entire.get(0).blockDimensions());
  }

  @Test
  void givenShapesAndLabels_thenParthenonsDimensionsAndComponentNames() {
    List<OutputVariable> all = OutputVariable.selectByName(state(), List.of(".*"), CELLS, true);
    OutputVariable q = all.stream().filter(v -> v.label().equals("q")).findFirst().orElseThrow();
    assertArrayEquals(new int[] {1, 8, 12}, q.blockDimensions());
    assertEquals(List.of("q"), q.componentNames());
    OutputVariable t = all.stream().filter(v -> v.label().equals("t")).findFirst().orElseThrow();
    assertArrayEquals(new int[] {3, 2, 1, 8, 12}, t.blockDimensions(), "shape reversed");
    assertEquals(List.of("t_0", "t_1", "t_2", "t_3", "t_4", "t_5"), t.componentNames());
    OutputVariable one = all.stream().filter(v -> v.label().equals("one")).findFirst()
        .orElseThrow();
    assertEquals(List.of("one_x"), one.componentNames());
    OutputVariable a = all.stream().filter(v -> v.label().equals("advected_1")).findFirst()
        .orElseThrow();
    assertEquals(List.of("advected_1_1_0", "advected_1_1_1"), a.componentNames());
    OutputVariable w = all.stream().filter(v -> v.label().equals("w")).findFirst().orElseThrow();
    assertArrayEquals(new int[] {4}, w.blockDimensions(), "no cells for a field without topology");
  }
}
