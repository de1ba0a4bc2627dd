package org.metope.mesh;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.TreeMap;
import org.metope.mesh.forest.LogicalLocation;

/**
 * The text of {@code metope -i DECK -m N}: a table of every block (gid, owning rank, level above
 * the root grid, logical location, number of neighbour entries), then Parthenon's summary of the
 * mesh structure ({@code Mesh::OutputMeshStructure}): root grid, block count, levels, blocks and
 * cost per level and per rank, and the spread of costs.
 *
 * <p>Locations are those of the tree over the root grid: level {@code rootLevel + level} and the
 * indices at that level, which is what Parthenon writes to its outputs.
 */
public final class MeshStructureReport {
  private MeshStructureReport() {}

  /** The report for {@code mesh}, lines separated by {@code \n}. */
  public static String render(Mesh mesh) {
    StringBuilder out = new StringBuilder();
    appendBlockTable(mesh, out);
    appendSummary(mesh, out);
    return out.toString();
  }

  /**
   * Parthenon's short summary ({@code OutputMeshStructure(-1, false)}), which its driver prints
   * during a run ({@code ncycle_out_mesh}): a blank line, then trees, blocks, levels (physical
   * and Parthenon's logical) and blocks and cost per level, lines separated by {@code \n}.
   */
  public static String renderSummary(Mesh mesh) {
    StringBuilder out = new StringBuilder("\n");
    int rootLogical = mesh.logicalLevel(mesh.location(0)) - mesh.location(0).level()
        + mesh.rootLevel();
    int current = rootLogical;
    TreeMap<Integer, long[]> perLevel = new TreeMap<>();
    for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
      int logical = mesh.logicalLevel(mesh.location(gid));
      current = Math.max(current, logical);
      long[] level = perLevel.computeIfAbsent(logical, l -> new long[2]);
      level[0]++;
      level[1] = (long) (level[1] + mesh.cost(gid));
    }
    out.append("Number of Trees = ").append(mesh.treeCount()).append('\n');
    out.append("Total number of MeshBlocks = ").append(mesh.totalBlocks()).append('\n');
    out.append("Number of physical refinement levels = ").append(current - rootLogical)
        .append('\n');
    out.append("Number of logical  refinement levels = ").append(current).append('\n');
    for (var entry : perLevel.entrySet()) {
      out.append("  Physical level = ").append(entry.getKey() - rootLogical)
          .append(" (logical level = ").append(entry.getKey()).append("): ")
          .append(entry.getValue()[0]).append(" MeshBlocks, cost = ")
          .append(entry.getValue()[1]).append('\n');
    }
    return out.toString();
  }

  private static void appendBlockTable(Mesh mesh, StringBuilder out) {
    out.append("MeshBlocks (level counts from the root grid; lx1 lx2 lx3 at tree level root + "
        + "level; neighbors = shared-element entries):\n");
    out.append(String.format(Locale.ROOT, "%8s %6s %6s %10s %10s %10s %10s%n", "gid", "rank",
        "level", "lx1", "lx2", "lx3", "neighbors"));
    for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
      LogicalLocation loc = mesh.location(gid);
      out.append(String.format(Locale.ROOT, "%8d %6d %6d %10d %10d %10d %10d%n", gid,
          mesh.rank(gid), loc.level() - mesh.rootLevel(), loc.lx1(), loc.lx2(), loc.lx3(),
          mesh.neighbors(gid).size()));
    }
  }

  private static void appendSummary(Mesh mesh, StringBuilder out) {
    int root = mesh.rootLevel();
    int current = mesh.currentLevel();
    var rootGrid = mesh.rootGrid();
    out.append('\n');
    out.append("Root grid = ").append(rootGrid.nrbx1()).append(" x ").append(rootGrid.nrbx2())
        .append(" x ").append(rootGrid.nrbx3()).append(" MeshBlocks\n");
    out.append("Total number of MeshBlocks = ").append(mesh.totalBlocks()).append('\n');
    out.append("Number of physical refinement levels = ").append(current - root).append('\n');
    out.append("Number of logical  refinement levels = ").append(current).append('\n');
    TreeMap<Integer, double[]> perLevel = new TreeMap<>();
    double[] perRankCost = new double[mesh.nranks()];
    double minCost = Double.MAX_VALUE;
    double maxCost = 0.0;
    double totalCost = 0.0;
    for (int gid = 0; gid < mesh.totalBlocks(); gid++) {
      double cost = mesh.cost(gid);
      double[] level = perLevel.computeIfAbsent(mesh.location(gid).level(), l -> new double[2]);
      level[0] += 1;
      level[1] += cost;
      perRankCost[mesh.rank(gid)] += cost;
      minCost = Math.min(minCost, cost);
      maxCost = Math.max(maxCost, cost);
      totalCost += cost;
    }
    for (var entry : perLevel.entrySet()) {
      out.append("  Physical level = ").append(entry.getKey() - root)
          .append(" (logical level = ").append(entry.getKey()).append("): ")
          .append((long) entry.getValue()[0]).append(" MeshBlocks, cost = ")
          .append(number(entry.getValue()[1])).append('\n');
    }
    out.append("Number of parallel ranks = ").append(mesh.nranks()).append('\n');
    BlockDistribution distribution = mesh.distribution();
    for (int rank = 0; rank < mesh.nranks(); rank++) {
      out.append("  Rank = ").append(rank).append(": ").append(distribution.blockCount(rank))
          .append(" MeshBlocks, cost = ").append(number(perRankCost[rank])).append('\n');
    }
    out.append("Load Balancing:\n");
    if (mesh.totalBlocks() > 0) {
      out.append("  Minimum cost = ").append(number(minCost)).append(", Maximum cost = ")
          .append(number(maxCost)).append(", Average cost = ")
          .append(number(totalCost / mesh.totalBlocks())).append('\n');
    }
  }

  /** A number as C++'s default stream prints it: 6 significant digits, no trailing zeros. */
  static String number(double value) {
    if (value == 0.0) {
      return "0";
    }
    BigDecimal rounded = new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros();
    int exponent = rounded.precision() - rounded.scale() - 1;
    if (exponent < -5 || exponent >= 6) {
      return String.format(Locale.ROOT, "%.5e", value).replaceAll("\\.?0+e", "e");
    }
    return rounded.toPlainString();
  }
}
