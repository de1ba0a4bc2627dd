package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.driver.FluxDriver;
import org.metope.examples.ApplicationTasks;
import org.metope.mesh.input.ParameterInput;

/**
 * The sparse_advection example's stages, as the framework's flux driver builds them: Parthenon's
 * {@code SparseAdvectionDriver} order, with the sparse deallocation at the end of the last stage's
 * lists and the time step and tags in a second region after it.
 */
class SparseAdvectionTasksTest {
  private static FluxDriver driver(String... overrides) throws IOException {
    String deck = Files.readString(SparseAdvectionRuns.resource("sparse.in"));
    ParameterInput pin = ParameterInput.parse("sparse.in", deck, List.of(overrides));
    return ApplicationTasks.driver(new SparseAdvectionApplication(), pin);
  }

  @Test
  void givenTheLastStage_thenSparseDeallocEndsEachListAndTimestepAndTagsFollowInARegion()
      throws IOException {
    List<List<List<String>>> last = ApplicationTasks.names(driver().makeTaskCollection(2));
    assertEquals(2, last.size());
    for (List<String> list : last.get(0)) {
      assertEquals("SparseDealloc", list.get(list.size() - 1), list.toString());
      assertEquals(1, list.stream().filter("SparseDealloc"::equals).count(), list.toString());
    }
    assertEquals(last.get(0).size(), last.get(1).size());
    assertEquals(List.of("EstimateTimestep", "ReduceTimestep", "Tag"), last.get(1).get(0));
    for (int p = 1; p < last.get(1).size(); p++) {
      assertEquals(List.of("EstimateTimestep", "Tag"), last.get(1).get(p));
    }
  }

  @Test
  void givenTheFirstStage_thenNoDeallocationAndOneRegion() throws IOException {
    List<List<List<String>>> first = ApplicationTasks.names(driver().makeTaskCollection(1));
    assertEquals(1, first.size());
    for (List<String> list : first.get(0)) {
      assertFalse(list.contains("SparseDealloc"), list.toString());
      assertFalse(list.contains("EstimateTimestep"), list.toString());
    }
  }

  @Test
  void givenSparseDisabled_thenNoDeallocationAndTheTimestepInTheStagesRegion()
      throws IOException {
    List<List<List<String>>> last = ApplicationTasks.names(
        driver("parthenon/sparse/enable_sparse=false").makeTaskCollection(2));
    assertEquals(1, last.size());
    for (List<String> list : last.get(0)) {
      assertFalse(list.contains("SparseDealloc"), list.toString());
      assertEquals("Tag", list.get(list.size() - 1), list.toString());
    }
  }
}
