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
}
