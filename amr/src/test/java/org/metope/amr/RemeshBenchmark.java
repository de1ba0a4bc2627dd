package org.metope.amr;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.metope.comm.PeakResidentMemory;
import org.metope.mesh.BlockDistribution;
import org.metope.mesh.LoadBalance;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.forest.Forest;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.NeighborLocation;
import org.metope.mesh.forest.RootGrid;

/**
 * The whole-tree work every rank repeats on a remesh, against the total block count, without
 * field data ({@code ./metope bench remesh [MAX_BLOCKS] [RANKS]}; docs/SCALING.md reads its
 * lines). A periodic 3D root grid of N = side^3 blocks (side 8, 16, 32, ... and the cube root of
 * MAX_BLOCKS: 100^3 = 10^6 by default), one block in a thousand asked to refine, then per
 * step the median of a few repeats:
 *
 * <pre>
 * tree     TreeUpdate.applyRequests of the tagged blocks' requests (as the allgather delivers
 *          them) on a copy of the forest (Parthenon's UpdateMeshBlockTree)
 * gids     Forest.resolveGids: the new leaves in gid order, from the forest's order before the
 *          step (only the changed blocks renumbered)
 * gids cpu the same step in CPU time of the benchmark's thread (what a busy machine leaves
 *          comparable)
 * balance  LoadBalance.distribute of every block's cost over RANKS ranks
 * plan     RemeshPlan from the forest's changes: the new costs, the distribution (a second
 *          balance), and rank 0's transfers
 * plan cpu the same step in CPU time of the benchmark's thread
 * alloc    bytes the tree, gids and plan steps allocate, per block of the new mesh (the
 *          garbage a remesh leaves on every rank before any field data)
 * nbrs     Forest.findNeighbors for one rank's blocks (N / RANKS of them); the boundary caches
 *          built from them are per rank and not timed here
 * heap     bytes of heap per block the forest holds after a collection (an estimate: the
 *          difference of used heap before and after building it)
 * </pre>
 *
 * Printed, never asserted: speed is measured on a quiet machine, not in tests.
 */
public final class RemeshBenchmark {
  private static final int REPEATS = 5;
  private static final int REFINE_EVERY = 1000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.ThreadMXBean ALLOCATION =
      (com.sun.management.ThreadMXBean) THREADS;

  private RemeshBenchmark() {}

  /** Arguments: the largest block count (default 10^6) and the rank count (default 1024). */
  public static void main(String[] args) {
    long max = args.length > 0 ? parse(args[0], "MAX_BLOCKS") : 1_000_000;
    int ranks = (int) (args.length > 1 ? parse(args[1], "RANKS") : 1024);
    System.out.printf("remesh, whole tree on every rank, %d ranks, median of %d (ms; heap in B"
        + " per block)%n", ranks, REPEATS);
    System.out.println("blocks | tree | gids | gids cpu | balance | plan | plan cpu | alloc B/block"
        + " | nbrs (N/ranks blocks) | heap | peak RSS so far");
    int largest = (int) Math.cbrt(max + 0.5);
    for (int side = 8; side < largest; side *= 2) {
      measure(side, ranks);
    }
    measure(Math.max(1, largest), ranks);
  }

  private static long parse(String value, String name) {
    try {
      long n = Long.parseLong(value);
      if (n >= 1 && n <= 100_000_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    System.err.println("metope: bench remesh: " + name + " = \"" + value
        + "\": expected a whole number from 1 to 100000000");
    System.exit(2);
    return 0;
  }

  private static void measure(int side, int ranks) {
    RootGrid grid = new RootGrid(3, side, side, side, true, true, true);
    long before = usedHeap();
    Forest forest = new Forest(grid, grid.rootLevel() + 2);
    List<LogicalLocation> locations = forest.resolveGids();
    long heap = (usedHeap() - before) / locations.size();
    int[] flags = new int[locations.size()];
    for (int gid = 0; gid < flags.length; gid += REFINE_EVERY) {
      flags[gid] = AmrTag.REFINE_VALUE;
    }
    int[] requests = TreeUpdate.requests(flags, 0);
    double[] tree = new double[REPEATS];
    double[] gids = new double[REPEATS];
    double[] gidsCpu = new double[REPEATS];
    double[] balance = new double[REPEATS];
    double[] plans = new double[REPEATS];
    double[] plansCpu = new double[REPEATS];
    double[] allocated = new double[REPEATS];
    BlockDistribution oldDistribution = LoadBalance.distribute(ones(locations.size()), ranks);
    double[] neighbours = new double[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
      Forest copy = new Forest(grid, grid.rootLevel() + 2);
      copy.resolveGids(); // the order before the step, as a mesh's forest has it
      long bytes = ALLOCATION.getCurrentThreadAllocatedBytes();
      long t0 = System.nanoTime();
      TreeUpdate.applyRequests(copy, locations, requests, 3);
      long t1 = System.nanoTime();
      long cpu = THREADS.getCurrentThreadCpuTime();
      List<LogicalLocation> leaves = copy.resolveGids();
      gidsCpu[r] = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6;
      bytes = ALLOCATION.getCurrentThreadAllocatedBytes() - bytes;
      long t2 = System.nanoTime();
      BlockDistribution distribution = LoadBalance.distribute(ones(leaves.size()), ranks);
      long t3 = System.nanoTime();
      long planBytes = ALLOCATION.getCurrentThreadAllocatedBytes();
      long planCpu = THREADS.getCurrentThreadCpuTime();
      RemeshPlan plan = new RemeshPlan(locations, oldDistribution, ones(locations.size()),
          leaves, copy.lastChanges(), ranks);
      int moving = plan.transfers(0).size();
      plansCpu[r] = (THREADS.getCurrentThreadCpuTime() - planCpu) / 1e6;
      allocated[r] = (double) (bytes + ALLOCATION.getCurrentThreadAllocatedBytes() - planBytes)
          / leaves.size();
      long planned = System.nanoTime();
      plans[r] = (planned - t3) / 1e6;
      int mine = Math.max(1, leaves.size() / ranks);
      int found = 0;
      for (int gid = 0; gid < mine; gid++) {
        found += copy.findNeighbors(leaves.get(gid)).size();
      }
      long t4 = System.nanoTime();
      tree[r] = (t1 - t0) / 1e6;
      gids[r] = (t2 - t1) / 1e6;
      balance[r] = (t3 - t2) / 1e6;
      neighbours[r] = (t4 - planned) / 1e6;
      if (found == 0 || distribution == null || moving < 0) {
        throw new IllegalStateException("no neighbours found: blocks=" + leaves.size());
      }
    }
    System.out.printf("%d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %d | %s%n",
        locations.size(), median(tree), median(gids), median(gidsCpu), median(balance),
        median(plans), median(plansCpu), median(allocated), median(neighbours), heap,
        PeakResidentMemory.ofThisProcess().replace("peak RSS ", ""));
  }

  private static double[] ones(int n) {
    double[] out = new double[n];
    java.util.Arrays.fill(out, 1.0);
    return out;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static long usedHeap() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
