package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.InputError;
import org.metope.mesh.view.FieldView;

class RefinementCriteriaTest {
  private static StateDescriptor pkg() {
    StateDescriptor pkg = AmrFixtures.toy(null);
    pkg.addField("v", Metadata.builder(Metadata.CELL, Metadata.DERIVED).shape(3).build());
    pkg.addField("t", Metadata.builder(Metadata.CELL, Metadata.DERIVED).shape(2, 3).build());
    pkg.addField("f", Metadata.of(Metadata.CELL, Metadata.FINE, Metadata.DERIVED));
    return pkg;
  }

  private static RefinementCriteria.Read read(String sections) {
    var pin = AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, sections));
    Mesh mesh = AmrFixtures.mesh(pin, pkg(), InProcessCluster.singleRank());
    return RefinementCriteria.fromInput(pin, mesh);
  }

  private static String error(String sections) {
    return assertThrows(InputError.class, () -> read(sections)).getMessage();
  }

  @Test
  void givenNumberedSections_thenOneCriterionEachWithParthenonsDefaults() {
    RefinementCriteria.Read r = read("<parthenon/refinement0>\nmethod = derivative_order_1\n"
        + "field = q\n<parthenon/refinement1>\nmethod = magnitude\nfield = s_2\n"
        + "refine_tol = 3\nderefine_tol = 1\nmax_level = 2\n"
        + "<parthenon/refinement3>\nmethod = derivative_order_2\nfield = q\n");

    assertEquals(2, r.criteria().size());
    RefinementCriterion first = r.criteria().get(0);
    assertTrue(first instanceof DerivativeCriterion);
    assertEquals(new RefinementCriterion.Settings(0, 0, 0.5, 0.05, 3), first.settings());
    RefinementCriterion second = r.criteria().get(1);
    assertTrue(second instanceof MagnitudeCriterion);
    assertEquals(3.0, second.settings().refineTol());
    assertEquals(1.0, second.settings().derefineTol());
    assertEquals(2, second.settings().maxLevel());
    assertEquals(List.of(), r.warnings());
  }

  @Test
  void givenComponentKeys_thenTheFlattenedComponentOfTheFieldsShape() {
    RefinementCriteria.Read r = read("<parthenon/refinement0>\nmethod = magnitude\nfield = v\n"
        + "vector_i = 2\n<parthenon/refinement1>\nmethod = magnitude\nfield = t\n"
        + "tensor_ij = 1, 2\n");

    assertEquals(2, r.criteria().get(0).settings().component());
    assertEquals(5, r.criteria().get(1).settings().component());
  }

  @Test
  void givenMaxLevelAboveNumlevel_thenItIsLoweredWithAWarning() {
    RefinementCriteria.Read r = read("<parthenon/refinement0>\nmethod = derivative_order_2\n"
        + "field = q\nmax_level = 7\n");

    assertEquals(3, r.criteria().get(0).settings().maxLevel());
    assertEquals(List.of("<parthenon/refinement0> max_level = 7 exceeds <parthenon/mesh>"
        + " numlevel = 3; using max_level = 3"), r.warnings());
  }

  @Test
  void givenBadSections_thenOneLineNamingTheKey() {
    assertTrue(error("<parthenon/refinement0>\nfield = q\n")
        .contains("parthenon/refinement0/method"));
    assertTrue(error("<parthenon/refinement0>\nmethod = gradient\nfield = q\n")
        .contains("derivative_order_1, derivative_order_2, magnitude"));
    String noField = error("<parthenon/refinement0>\nmethod = magnitude\nfield = rho\n");
    assertTrue(noField.startsWith("t.in:"), noField);
    assertTrue(noField.contains("parthenon/refinement0/field = \"rho\": expected the name of a"
        + " field"), noField);
    assertTrue(error("<parthenon/refinement0>\nmethod = magnitude\nfield = v\nvector_i = 3\n")
        .contains("vector_i"));
    assertTrue(error("<parthenon/refinement0>\nmethod = magnitude\nfield = q\n"
        + "tensor_ij = 0, 0\n").contains("tensor_ij"));
    assertTrue(error("<parthenon/refinement0>\nmethod = magnitude\nfield = q\n"
        + "comparator = equal\n").contains("comparator"));
  }

  /**
   * A criterion on a FINE field measures its own cells: block 0 ([0, 0.25]^2, 8^2 cells, 16^2
   * fine cells) with f = x at the fine cell centres reaches 0.25 + dx_fine / 2 = 0.2578125 in its
   * fine ghost layer, so a magnitude criterion refines it below that and not above. With the
   * block's cell bounds on the fine array (Parthenon's reading) the largest value seen would be
   * 0.1328125 (fine index 10), and neither tolerance would refine.
   */
  @Test
  void givenAFineField_thenItsCriterionMeasuresEveryFineCell() {
    for (double tol : new double[] {0.2578, 0.2579}) {
      var pin = AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "<parthenon/refinement0>\n"
          + "method = magnitude\nfield = f\nrefine_tol = " + tol + "\nderefine_tol = 0.01\n"));
      Mesh mesh = AmrFixtures.mesh(pin, pkg(), InProcessCluster.singleRank());
      MeshData md = mesh.meshData("base").get(0);
      FieldView f = FieldView.of(md, "f");
      for (int b = 0; b < md.numBlocks(); b++) {
        UniformCartesian x = md.block(b).fineCoords();
        IndexShape cells = md.block(b).fineCellBounds();
        for (int j = 0; j < cells.entireNcells(1); j++) {
          for (int i = 0; i < cells.entireNcells(0); i++) {
            f.set(b, 0, 0, j, i, x.x1c(i));
          }
        }
      }
      RefinementCriterion c = RefinementCriteria.fromInput(pin, mesh).criteria().get(0);
      assertEquals(tol < 0.2578125 ? AmrTag.REFINE_VALUE : AmrTag.SAME_VALUE, c.check(md, 0),
          "refine_tol = " + tol);
    }
  }
}
