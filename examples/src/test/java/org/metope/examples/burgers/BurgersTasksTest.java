package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.examples.ApplicationTasks;
import org.metope.mesh.input.ParameterInput;

/**
 * The burgers example's stages, as the framework's flux driver builds them for it on an adaptive
 * mesh: by default the exchange prolongates ghost cells that face a coarser block and applies
 * the boundary conditions once; {@code <burgers> prolongate_ghosts = false} exchanges without
 * prolongation and applies the conditions in a task of its own, as Parthenon's burgers driver.
 */
class BurgersTasksTest {
  private static List<String> stage(int stage, String... overrides) throws IOException {
    String deck;
    try (InputStream in = BurgersTasksTest.class.getResourceAsStream(
        "/parthenon/burgers/lin_2d_l2.in")) {
      deck = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    ParameterInput pin = ParameterInput.parse("lin_2d_l2.in", deck, List.of(overrides));
    List<List<List<String>>> regions = ApplicationTasks.names(
        ApplicationTasks.driver(new BurgersApplication(), pin).makeTaskCollection(stage));
    assertEquals(1, regions.size());
    return regions.get(0).get(0);
  }

  @Test
  void givenParthenonsBehaviour_thenTheExchangeDoesNotProlongateAndBoundaryConditionsFollowIt()
      throws IOException {
    for (int stage = 1; stage <= 2; stage++) {
      List<String> tasks = stage(stage, "burgers/prolongate_ghosts=false");
      assertFalse(tasks.contains("prolongate_bounds"), tasks.toString());
      int set = tasks.indexOf("set_bounds");
      assertEquals(List.of("set_bounds", "apply_boundary_conditions", "FillDerived"),
          tasks.subList(set, set + 3));
    }
  }

  @Test
  void givenTheDefault_thenTheExchangeProlongatesAndAppliesTheConditionsOnce()
      throws IOException {
    List<String> tasks = stage(1);
    assertTrue(tasks.contains("prolongate_bounds"), tasks.toString());
    assertEquals(1, tasks.stream().filter("apply_boundary_conditions"::equals).count(),
        tasks.toString());
    assertEquals("apply_boundary_conditions", tasks.get(tasks.indexOf("FillDerived") - 1));
  }

  @Test
  void givenTheLastStage_thenNoSparseDeallocation() throws IOException {
    List<String> tasks = stage(2);
    assertFalse(tasks.contains("SparseDealloc"), tasks.toString());
    assertEquals("Tag", tasks.get(tasks.size() - 1));
  }
}
