package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

class AdvectionPackageTest {
  @Test
  void givenAnEmptyAdvectionBlock_thenParthenonsDefaultsAreUsedAndRecorded() {
    ParameterInput pin = AdvectionMeshes.pin(AdvectionMeshes.deck(3, 8, 8, ""));
    Params p = AdvectionPackage.initialize(pin).params();
    assertEquals(0.45, p.getDouble("cfl"));
    assertEquals(1.0, p.getDouble("vx"));
    assertEquals(0.3, p.getDouble("refine_tol"));
    assertEquals(0.03, p.getDouble("derefine_tol"));
    assertEquals("wave", p.getString("profile"));
    assertEquals(1e-6, p.getDouble("amp"));
    assertEquals(Math.sqrt(3.0), p.getDouble("vel"));
    assertTrue(p.getBoolean("fill_derived"));
    assertEquals(1, p.getInt("num_vars"));
    assertTrue(pin.effectiveDeck().contains("profile       = wave"), pin.effectiveDeck());
    assertTrue(pin.effectiveDeck().contains("compute_error = false"), "read at set-up: "
        + pin.effectiveDeck());
  }

  @Test
  void givenDefaultAngles_thenTheWaveHasOneWavelengthAlongEachAxis() {
    String deck = "<parthenon/mesh>\nnx1 = 12\nx1min = 0\nx1max = 3\nnx2 = 8\nx2min = 0\n"
        + "x2max = 2\nnx3 = 6\nx3min = 0\nx3max = 1.5\n<Advection>\n";
    Params p = AdvectionPackage.initialize(AdvectionMeshes.pin(deck)).params();
    double k = p.getDouble("k_par");
    assertEquals(2 * Math.PI / 3.0, k * p.getDouble("cos_a2") * p.getDouble("cos_a3"), 1e-12);
    assertEquals(2 * Math.PI / 2.0, k * p.getDouble("cos_a2") * p.getDouble("sin_a3"), 1e-12);
    assertEquals(2 * Math.PI / 1.5, k * p.getDouble("sin_a2"), 1e-12);
  }

  @Test
  void givenVerticalSwitches_thenTheWaveRunsAlongX2OrX3() {
    Params x2 = AdvectionPackage.initialize(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 8,
        "ang_2 = 0.0\nang_3_vert = true\n"))).params();
    assertEquals(1.0, x2.getDouble("sin_a3"));
    assertEquals(0.0, x2.getDouble("cos_a3"));
    assertEquals(2 * Math.PI, x2.getDouble("k_par"), 1e-12);
    Params x3 = AdvectionPackage.initialize(AdvectionMeshes.pin(AdvectionMeshes.deck(3, 8, 8,
        "ang_2_vert = true\n"))).params();
    assertEquals(1.0, x3.getDouble("sin_a2"));
    assertEquals(0.0, x3.getDouble("cos_a2"));
  }

  @Test
  void givenFillDerivedAndSeveralVariables_thenParthenonsFieldsAndSparsePool() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 8,
        "num_vars = 2\nvec_size = 3\nv_const = false\n")));
    ResolvedState s = mesh.resolvedPackages();
    assertEquals(List.of("advected", "advected_1", "v", "one_minus_advected",
        "one_minus_advected_sq", "one_minus_sqrt_one_minus_advected_sq_12",
        "one_minus_sqrt_one_minus_advected_sq_37", "my_derived_var"), s.names());
    Metadata advected = s.field("advected_1").metadata();
    assertTrue(advected.allSet(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.WITH_FLUXES, MetadataFlag.FILL_GHOST));
    assertEquals(List.of("1_0", "1_1", "1_2"), advected.componentLabels());
    assertEquals(2, s.field("one_minus_advected").numComponents());
    assertTrue(s.field("one_minus_sqrt_one_minus_advected_sq_37").metadata()
        .allSet(MetadataFlag.SPARSE, MetadataFlag.RESTART, MetadataFlag.ONE_COPY));
    assertEquals(List.of("vx", "vy", "vz"), s.field("v").metadata().componentLabels());
    assertFalse(s.field("my_derived_var").metadata().isSet(MetadataFlag.INDEPENDENT));
    StateDescriptor pkg = mesh.packages().get(AdvectionPackage.NAME);
    assertEquals(List.of("total_advected", "max_advected", "min_advected", "advected_powers"),
        pkg.historyOutputs().stream().map(h -> h.label()).toList());
  }

  @Test
  void givenAnUnknownProfile_thenOneLineListingTheProfiles() {
    InputError e = assertThrows(InputError.class, () -> AdvectionPackage.initialize(
        AdvectionMeshes.pin(AdvectionMeshes.deck(1, 8, 8, "profile = square\n"))));
    assertEquals("t.in:20: Advection/profile = \"square\": expected one of wave,"
        + " smooth_gaussian, hard_sphere, block", e.getMessage());
  }

  @Test
  void givenValuesAboveAndBelowTheTolerances_thenBlocksRefineStayOrDerefine() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 24, 8, "")));
    MeshData md = mesh.meshData("base").get(0);
    double[] a = md.data();
    int q = md.state().fieldId("advected");
    a[md.index(q, 0, 0, 0, 0, 3)] = 0.5; // block 0: 0.5 and zeros: refine
    for (int i = 0; i < 12; i++) {
      a[md.index(q, 1, 0, 0, 0, i)] = 0.1; // block 1: 0.1 everywhere: same
    }
    int[] tags = new int[3];
    mesh.packages().get(AdvectionPackage.NAME).checkRefinement(md, tags);
    assertEquals(List.of(AmrTag.REFINE_VALUE, AmrTag.SAME_VALUE, AmrTag.DEREFINE_VALUE),
        List.of(tags[0], tags[1], tags[2]));
  }

  @Test
  void givenTwoPartitionsCheckedInTurn_thenEachReadsItsOwnBlocks() {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(1, 24, 8, ""),
        "parthenon/mesh/pack_size=2"));
    List<MeshData> parts = mesh.meshData("base");
    assertEquals(2, parts.size());
    MeshData second = parts.get(1);
    second.data()[second.index(second.state().fieldId("advected"), 0, 0, 0, 0, 3)] = 0.5;
    StateDescriptor pkg = mesh.packages().get(AdvectionPackage.NAME);
    int[] tags = new int[2];
    for (int round = 0; round < 2; round++) {
      pkg.checkRefinement(parts.get(0), tags);
      assertEquals(List.of(AmrTag.DEREFINE_VALUE, AmrTag.DEREFINE_VALUE),
          List.of(tags[0], tags[1]), "zeros on blocks 0 and 1, round " + round);
      pkg.checkRefinement(second, tags);
      assertEquals(AmrTag.REFINE_VALUE, tags[0], "0.5 and zeros on block 2, round " + round);
    }
  }
}
