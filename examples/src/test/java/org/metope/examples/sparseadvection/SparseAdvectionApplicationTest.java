package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.app.Applications;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * The sparse_advection application as a user meets it: picked by its deck block, bad values
 * refused with one line, and {@code enable_sparse = false} giving the same run.
 */
class SparseAdvectionApplicationTest {
  @TempDir Path dir;

  private static String deck() throws IOException {
    return Files.readString(SparseAdvectionRuns.resource("sparse.in"));
  }

  private record Exit(int code, String err) {}

  private Exit launch(String... overrides) throws IOException {
    ParameterInput pin = ParameterInput.parse("sparse.in", deck(), List.of(overrides));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    int code = ApplicationRunner.run(new SparseAdvectionApplication(),
        new ApplicationRunner.Launch(pin, RunOptions.of(dir, o), e,
            InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput));
    return new Exit(code, err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenParthenonsDeck_thenTheLauncherPicksSparseAdvection() throws IOException {
    ParameterInput pin = ParameterInput.parse("sparse.in", deck(), List.of());
    assertEquals("sparse_advection", Applications.load().select(pin).name());
  }

  @Test
  void givenA3dMesh_thenOneLineNamesTheKeyAndNothingRuns() throws IOException {
    Exit exit = launch("parthenon/mesh/nx3=16", "parthenon/meshblock/nx3=8");
    assertEquals(2, exit.code());
    assertEquals(1, exit.err().lines().count(), exit.err());
    // The override came from the command line, which the line names as its source.
    assertTrue(exit.err().startsWith("command line: parthenon/mesh/nx3")
        && exit.err().contains("2D"), exit.err());
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "no output before the deck is accepted");
    }
  }

  @Test
  void givenANonPositiveCflOrSpeed_thenOneLineNamesTheKey() throws IOException {
    for (String key : List.of("cfl", "speed", "init_size")) {
      Exit exit = launch("sparse_advection/" + key + "=0");
      assertEquals(2, exit.code(), key);
      assertEquals(1, exit.err().lines().count(), exit.err());
      assertTrue(exit.err().contains("sparse_advection") && exit.err().contains(key),
          exit.err());
    }
  }

  /**
   * With sparse off every field is allocated everywhere; the run takes the same steps on the
   * same blocks and every value a sparse run holds agrees to the allocation threshold (blocks a
   * sparse run leaves unallocated hold values below it with sparse off).
   */
  @Test
  void givenSparseDisabled_thenTheSameStepsBlocksAndValuesToTheThreshold() throws IOException {
    Map<LogicalLocation, double[]> sparse = new TreeMap<>();
    Map<LogicalLocation, double[]> dense = new TreeMap<>();
    Path on = Files.createDirectory(dir.resolve("on"));
    Path off = Files.createDirectory(dir.resolve("off"));
    String[] common = {"parthenon/time/tlim=0.1", "parthenon/output0/dt=-1",
        "parthenon/output1/dt=-1"};
    SparseAdvectionRuns.interiors(SparseAdvectionRuns.run(SparseAdvectionRuns.resource(
        "sparse.in"), on, common).mesh(), sparse);
    String[] disabled = {common[0], common[1], common[2], "parthenon/sparse/enable_sparse=false"};
    SparseAdvectionRuns.interiors(SparseAdvectionRuns.run(SparseAdvectionRuns.resource(
        "sparse.in"), off, disabled).mesh(), dense);
    assertEquals(Files.readString(on.resolve("sparse.out3.hst")),
        Files.readString(off.resolve("sparse.out3.hst")));
    assertEquals(sparse.keySet(), dense.keySet());
    int perField = sparse.values().iterator().next().length / SparseAdvectionPackage.NUM_FIELDS;
    for (Map.Entry<LogicalLocation, double[]> e : sparse.entrySet()) {
      double[] s = e.getValue();
      double[] d = dense.get(e.getKey());
      for (int f = 0; f < SparseAdvectionPackage.NUM_FIELDS; f++) {
        assertEquals(1.0, d[f * perField], "allocated everywhere with sparse off");
        for (int n = 1; n < perField; n++) {
          int x = f * perField + n;
          assertEquals(s[x], d[x], 1e-5, e.getKey() + " field " + f + " value " + n);
        }
      }
    }
  }
}
