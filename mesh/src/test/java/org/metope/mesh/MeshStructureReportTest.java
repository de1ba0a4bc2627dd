package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MeshStructureReportTest {

  @Test
  void givenA64BlockPeriodicCubeOnTwoRanks_thenTheReportShowsParthenonsSummaryAndEveryBlock() {
    Mesh mesh = Mesh.build(Decks.config(Decks.deck(64, 64, 64, 16, 16, 16, Decks.periodic(),
        "")), 2, 0);
    String report = MeshStructureReport.render(mesh);
    List<String> lines = report.lines().toList();
    assertTrue(lines.contains("Root grid = 4 x 4 x 4 MeshBlocks"), report);
    assertTrue(lines.contains("Total number of MeshBlocks = 64"), report);
    assertTrue(lines.contains("Number of physical refinement levels = 0"), report);
    assertTrue(lines.contains("Number of logical  refinement levels = 2"), report);
    assertTrue(lines.contains("  Physical level = 0 (logical level = 2): 64 MeshBlocks, cost = 64"),
        report);
    assertTrue(lines.contains("Number of parallel ranks = 2"), report);
    assertTrue(lines.contains("  Rank = 0: 32 MeshBlocks, cost = 32"), report);
    assertTrue(lines.contains("  Rank = 1: 32 MeshBlocks, cost = 32"), report);
    assertTrue(lines.contains("  Minimum cost = 1, Maximum cost = 1, Average cost = 1"), report);
    int blockRows = 0;
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 7 && f[0].matches("\\d+")) {
        int gid = Integer.parseInt(f[0]);
        assertEquals(blockRows, gid);
        assertEquals(gid < 32 ? "0" : "1", f[1]);
        assertEquals("0", f[2]);
        assertEquals("26", f[6]);
        blockRows++;
      }
    }
    assertEquals(64, blockRows);
    assertTrue(lines.contains("       5      0      0          1          0          1         26"),
        report);
  }

  @Test
  void givenNumbers_thenTheyPrintLikeCxxStreams() {
    assertEquals("1", MeshStructureReport.number(1.0));
    assertEquals("0.5", MeshStructureReport.number(0.5));
    assertEquals("1.33333", MeshStructureReport.number(4.0 / 3));
    assertEquals("123457", MeshStructureReport.number(123456.7));
    assertEquals("1.23457e+06", MeshStructureReport.number(1234567.0));
  }

  @Test
  void givenParthenonsTreeSplits_thenTheSummaryCountsTreesAndLogicalLevelsAsParthenonPrintsThem() {
    // Parthenon's advection example prints "Number of Trees = 16" and logical level 0 for root
    // blocks on a 4 x 4 2D root grid, and one tree with root blocks at logical level 2 in 3D.
    Mesh flat = Mesh.build(Decks.config(Decks.deck(64, 64, 1, 16, 16, 1, Decks.periodic(), "")),
        1, 0);
    assertEquals("\nNumber of Trees = 16\nTotal number of MeshBlocks = 16\n"
        + "Number of physical refinement levels = 0\nNumber of logical  refinement levels = 0\n"
        + "  Physical level = 0 (logical level = 0): 16 MeshBlocks, cost = 16\n",
        MeshStructureReport.renderSummary(flat));
    var config = Decks.config(Decks.deck(64, 64, 64, 16, 16, 16,
        "refinement = adaptive\nnumlevel = 2\n" + Decks.periodic(), ""));
    java.util.List<org.metope.mesh.forest.LogicalLocation> leaves =
        new java.util.ArrayList<>(Mesh.build(config, 1, 0).locations());
    var refined = leaves.remove(63);
    leaves.addAll(List.of(refined.children(3)));
    Mesh cube = Mesh.build(config, leaves, 2, 1);
    assertEquals("\nNumber of Trees = 1\nTotal number of MeshBlocks = 71\n"
        + "Number of physical refinement levels = 1\nNumber of logical  refinement levels = 3\n"
        + "  Physical level = 0 (logical level = 2): 63 MeshBlocks, cost = 63\n"
        + "  Physical level = 1 (logical level = 3): 8 MeshBlocks, cost = 8\n",
        MeshStructureReport.renderSummary(cube));
  }
}
