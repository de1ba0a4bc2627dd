package org.metope.examples.sparseadvection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ForwardingApplication;
import org.metope.app.Simulation;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.driver.Driver;
import org.metope.driver.EvolutionDriver;
import org.metope.mesh.Mesh;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;

/**
 * Allocation status survives remesh and migration between ranks: sparse_advection (Parthenon's
 * deck cut to {@code tlim = 0.1}, 31 cycles with remeshes that create, destroy and move blocks)
 * on 2 in-process ranks, looked at before every step, holds on every block (by location) the same
 * fields allocated, with the same values, as the 1-rank run at that cycle. The run must move
 * blocks that hold allocated fields between the ranks, and create blocks that inherit allocated
 * fields, or it proves nothing: on the shipped deck the four discs keep both halves of the block
 * order the same size, so the rank boundary never moves across a disc, and the mesh here is
 * widened to 9 x 8 root blocks ({@code x1min = -1.25}, same cell size) to break that symmetry. The
 * negative control shows that the comparison sees a run whose allocation differs ({@code
 * dealloc_count = 1}).
 */
class SparseAdvectionMigrationTest {
  @TempDir Path dir;

  /** One block seen before a step: its rank, and its pool's allocation flags and values. */
  private record Seen(int rank, double[] fields) {}

  /** What every rank saw before each step, by cycle, then by location. */
  private Map<Integer, Map<LogicalLocation, Seen>> run(int ranks, String... overrides)
      throws IOException {
    Path out = Files.createTempDirectory(dir, "r" + ranks);
    List<String> all = new ArrayList<>(List.of("parthenon/time/tlim=0.1",
        "parthenon/output0/dt=-1", "parthenon/output1/dt=-1", "parthenon/mesh/x1min=-1.25",
        "parthenon/mesh/nx1=72"));
    all.addAll(List.of(overrides));
    String deck = Files.readString(SparseAdvectionRuns.resource("sparse.in"));
    Map<Integer, Map<LogicalLocation, Seen>> seen = new ConcurrentHashMap<>();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.parse("sparse.in", deck, all);
      new Recording(seen).simulate(pin, out, comm);
    });
    Map<Integer, Map<LogicalLocation, Seen>> sorted = new TreeMap<>();
    seen.forEach((cycle, blocks) -> sorted.put(cycle, new TreeMap<>(blocks)));
    return sorted;
  }

  @Test
  void givenTwoRanks_thenEveryBlockHoldsTheOneRankAllocationAndValuesBeforeEveryStep()
      throws IOException {
    Map<Integer, Map<LogicalLocation, Seen>> one = run(1);
    Map<Integer, Map<LogicalLocation, Seen>> two = run(2);
    assertEquals(31, one.size(), "cycles seen");
    assertEquals(one.keySet(), two.keySet(), "cycles");
    for (int cycle : one.keySet()) {
      assertEquals(differences(one.get(cycle), two.get(cycle)), List.of(), "cycle " + cycle);
    }
    int migratedAllocated = 0;
    int createdAllocated = 0;
    Map<LogicalLocation, Seen> before = null;
    for (Map<LogicalLocation, Seen> now : two.values()) {
      if (before != null) {
        for (Map.Entry<LogicalLocation, Seen> e : now.entrySet()) {
          Seen was = before.get(e.getKey());
          if (was == null) {
            createdAllocated += allocatedFields(e.getValue()) > 0 ? 1 : 0;
          } else if (was.rank() != e.getValue().rank()) {
            migratedAllocated += allocatedFields(e.getValue()) > 0 ? 1 : 0;
          }
        }
      }
      before = now;
    }
    String counts = "migrated with allocated fields: " + migratedAllocated
        + ", created with allocated fields: " + createdAllocated;
    System.out.println(counts);
    assertTrue(migratedAllocated > 0, counts);
    assertTrue(createdAllocated > 0, counts);
  }

  @Test
  void givenAnotherDeallocationCount_thenTheComparisonSeesOtherAllocations() throws IOException {
    Map<Integer, Map<LogicalLocation, Seen>> one = run(1);
    Map<Integer, Map<LogicalLocation, Seen>> other = run(2, "parthenon/sparse/dealloc_count=1");
    boolean differs = false;
    for (int cycle : one.keySet()) {
      differs |= other.containsKey(cycle)
          && !differences(one.get(cycle), other.get(cycle)).isEmpty();
    }
    assertTrue(differs, "freeing after one cycle instead of five must show somewhere");
  }

  /** Locations whose pool differs (allocation flag or a value's bits), or that only one holds. */
  private static List<LogicalLocation> differences(Map<LogicalLocation, Seen> expected,
      Map<LogicalLocation, Seen> actual) {
    List<LogicalLocation> out = new ArrayList<>();
    for (Map.Entry<LogicalLocation, Seen> e : expected.entrySet()) {
      Seen a = actual.get(e.getKey());
      if (a == null || !Arrays.equals(e.getValue().fields(), a.fields())) {
        out.add(e.getKey());
      }
    }
    for (LogicalLocation loc : actual.keySet()) {
      if (!expected.containsKey(loc)) {
        out.add(loc);
      }
    }
    return out;
  }

  /**
   * Allocated fields of a block: the pool's layout from {@link SparseAdvectionRuns#interiors}, a
   * flag (1 or 0) ahead of each field's values.
   */
  private static int allocatedFields(Seen s) {
    int per = s.fields().length / SparseAdvectionPackage.NUM_FIELDS;
    int n = 0;
    for (int f = 0; f < SparseAdvectionPackage.NUM_FIELDS; f++) {
      n += s.fields()[f * per] == 1.0 ? 1 : 0;
    }
    return n;
  }

  /** sparse_advection with a pre-step hook that records every block of the rank. */
  private static final class Recording extends ForwardingApplication {
    private final Map<Integer, Map<LogicalLocation, Seen>> seen;

    Recording(Map<Integer, Map<LogicalLocation, Seen>> seen) {
      super(new SparseAdvectionApplication());
      this.seen = seen;
    }

    void simulate(ParameterInput pin, Path out, Communicator comm) {
      SparseAdvectionRuns.run(this, pin, out, comm, InOneBoundaryCommunication::fromInput);
    }

    private void record(Mesh mesh, int cycle) {
      Map<LogicalLocation, double[]> fields = new TreeMap<>();
      SparseAdvectionRuns.interiors(mesh, fields);
      Map<LogicalLocation, Seen> at = seen.computeIfAbsent(cycle, c -> new ConcurrentHashMap<>());
      fields.forEach((loc, values) -> {
        Seen old = at.put(loc, new Seen(mesh.myRank(), values));
        assertFalse(old != null, "two ranks hold " + loc);
      });
    }

    @Override
    public Driver makeDriver(Simulation sim) {
      Driver driver = super.makeDriver(sim);
      ((EvolutionDriver) driver).hooks().setPreStepMeshUserWorkInLoop(
          (mesh, pin, tm) -> record(mesh, tm.ncycle()));
      return driver;
    }
  }
}
