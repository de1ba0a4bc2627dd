package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.input.InputError;

class MeshConfigurationTest {
  private static final String CUBE = Decks.deck(64, 64, 64, 16, 16, 16, "", "");

  private static String errorOf(String text, String... overrides) {
    InputError e = assertThrows(InputError.class, () -> Decks.config(text, overrides));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    return e.getMessage();
  }

  @Test
  void givenAMinimalDeck_thenParthenonsDefaultsApply() {
    MeshConfiguration c = Decks.config(Decks.deck(64, 32, 1, 16, 8, 1, "", ""));
    assertEquals(2, c.ndim());
    assertEquals(Refinement.NONE, c.refinement());
    assertEquals(2, c.nghost());
    assertEquals(-1, c.packSize());
    assertEquals(1, c.numLevel());
    assertEquals(List.of("outflow", "outflow", "outflow", "outflow", "outflow", "outflow"),
        c.boundaryNames());
    assertEquals(BoundaryFlag.USER, c.boundaryFlag(BoundaryFace.OUTER_X2));
    assertEquals(4, c.rootBlocks(0));
    assertEquals(4, c.rootBlocks(1));
    assertEquals(1, c.rootBlocks(2));
    assertEquals(c.rootGrid().rootLevel(), c.maxLevel());
  }

  /**
   * GIVEN pack_size below 1 THEN a rank's blocks form one pack, or with several packs per rank
   * (task threads) packs of the rank's blocks over the packs, rounded up; a pack_size of the deck
   * wins over the packs per rank.
   */
  @Test
  void givenPacksPerRank_thenBlocksPerPackShareTheRanksBlocksUnlessTheDeckSetsPackSize() {
    MeshConfiguration one = Decks.config(CUBE);
    assertEquals(1, one.packsPerRank());
    assertEquals(64, one.blocksPerPack(64));
    assertEquals(1, one.blocksPerPack(0));
    MeshConfiguration four = one.withPacksPerRank(4);
    assertEquals(16, four.blocksPerPack(64));
    assertEquals(17, four.blocksPerPack(65), "130 blocks over 4 packs: 33, 33, 33, 31");
    assertEquals(1, four.blocksPerPack(3), "fewer blocks than packs: one block each");
    assertEquals(1, four.blocksPerPack(0));
    MeshConfiguration deckSize = Decks.config(CUBE, "parthenon/mesh/pack_size=5")
        .withPacksPerRank(4);
    assertEquals(5, deckSize.blocksPerPack(64));
    assertThrows(IllegalArgumentException.class, () -> one.withPacksPerRank(0));
  }

  @Test
  void givenNoMeshblockSection_thenOneBlockCoversTheMesh() {
    String text = "<parthenon/mesh>\nnx1 = 32\nx1min = 0\nx1max = 1\nnx2 = 1\nx2min = 0\n"
        + "x2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n";
    MeshConfiguration c = Decks.config(text);
    assertEquals(1, c.ndim());
    assertEquals(32, c.blockNx1());
    assertEquals(1, c.blockNx2());
    assertEquals(1, c.rootGrid().rootBlockCount());
  }

  @Test
  void givenPeriodicBoundariesAndAdaptiveRefinement_thenTheRootGridAndMaxLevelFollow() {
    MeshConfiguration c = Decks.config(CUBE, "parthenon/mesh/ix2_bc=periodic",
        "parthenon/mesh/ox2_bc=periodic", "parthenon/mesh/refinement=adaptive",
        "parthenon/mesh/numlevel=3");
    assertTrue(c.isAdaptive());
    assertTrue(c.isPeriodic(1));
    assertFalse(c.isPeriodic(0));
    assertEquals(2 + 2, c.maxLevel());
    assertEquals(new org.metope.mesh.forest.RootGrid(3, 4, 4, 4, false, true, false),
        c.rootGrid());
  }

  @Test
  void givenABlockSizeThatDoesNotDivideTheMesh_thenOneLineNamesTheLineAndKey() {
    String text = Decks.deck(64, 64, 64, 16, 12, 16, "", "");
    assertEquals("t.in:14: parthenon/meshblock/nx2 = \"12\": expected a divisor of "
        + "parthenon/mesh/nx2 = 64 (the mesh must be evenly divisible by the meshblock)",
        errorOf(text));
  }

  @Test
  void givenAnOddBlockSizeWithRefinement_thenItIsRejected() {
    String text = Decks.deck(60, 60, 1, 20, 15, 1, "refinement = static\n", "");
    assertTrue(errorOf(text).contains("parthenon/meshblock/nx2 = \"15\": expected an even number"
        + " of cells, since parthenon/mesh/refinement = static"));
    // Without refinement the same odd size is fine.
    assertEquals(15, Decks.config(Decks.deck(60, 60, 1, 20, 15, 1, "", "")).blockNx2());
  }

  @Test
  void givenAnOddGhostWidthWithRefinement_thenItIsRejectedAsParthenonDoes() {
    String statik = Decks.deck(64, 64, 1, 16, 16, 1, "refinement = static\nnghost = 3\n", "");
    assertTrue(errorOf(statik).contains("parthenon/mesh/nghost = \"3\": expected an even number"
        + " when parthenon/mesh/refinement = static (prolongation fills fine ghost cells in"
        + " pairs, as in Parthenon)"), errorOf(statik));
    String adaptive = Decks.deck(64, 64, 1, 16, 16, 1,
        "refinement = adaptive\nnumlevel = 2\nnghost = 1\n", "");
    assertTrue(errorOf(adaptive).contains("nghost = \"1\": expected an even number when"
        + " parthenon/mesh/refinement = adaptive"), errorOf(adaptive));
    // One level: odd ghost widths are fine, there is nothing to prolongate.
    assertEquals(3, Decks.config(Decks.deck(64, 64, 1, 16, 16, 1, "nghost = 3\n", "")).nghost());
  }

  @Test
  void givenGhostsWiderThanABlock_thenItIsRejected() {
    assertTrue(errorOf(CUBE, "parthenon/mesh/nghost=17").startsWith("command line: "
        + "parthenon/mesh/nghost = \"17\": expected at most the block width "
        + "parthenon/meshblock/nx1 = 16"));
    assertTrue(errorOf(CUBE, "parthenon/mesh/nghost=0").contains("expected an integer >= 1"));
  }

  @Test
  void givenAnUnknownBoundaryName_thenTheAcceptedNamesAreListed() {
    assertEquals("command line: parthenon/mesh/ox3_bc = \"wall\": expected a boundary "
        + "condition: one of periodic, outflow, reflecting, user",
        errorOf(CUBE, "parthenon/mesh/ox3_bc=wall"));
  }

  @Test
  void givenAnApplicationBoundaryName_thenItIsAccepted() {
    MeshConfiguration c = MeshConfiguration.fromInput(
        Decks.parse(CUBE, "parthenon/mesh/ox3_bc=wall"), List.of("wall"));
    assertEquals("wall", c.boundaryName(BoundaryFace.OUTER_X3));
    assertEquals(BoundaryFlag.USER, c.boundaryFlag(BoundaryFace.OUTER_X3));
  }

  @Test
  void givenPeriodicOnOneSideOnly_thenTheOtherSideIsNamed() {
    assertTrue(errorOf(CUBE, "parthenon/mesh/ix1_bc=periodic").startsWith(
        "t.in: parthenon/mesh/ox1_bc = \"outflow\" (default): expected periodic, as "
            + "parthenon/mesh/ix1_bc is (both sides of an axis must be periodic)"));
  }

  @Test
  void givenNonPositiveSizes_thenTheyAreRejected() {
    assertTrue(errorOf(CUBE, "parthenon/mesh/nx1=0").contains("nx1 = \"0\": expected an integer"
        + " >= 1"));
    assertTrue(errorOf(CUBE, "parthenon/meshblock/nx3=-16").contains(
        "parthenon/meshblock/nx3 = \"-16\": expected a positive integer"));
    assertTrue(errorOf(CUBE, "parthenon/mesh/x2max=0").contains(
        "parthenon/mesh/x2max = \"0\": expected a value larger than parthenon/mesh/x2min = 0"));
    assertTrue(errorOf(CUBE, "parthenon/meshblock/nx1=2", "parthenon/mesh/nx1=4")
        .contains("expected at least 4 cells"));
  }

  @Test
  void givenA2DMeshInTheX1X3Plane_thenItIsRejected() {
    assertTrue(errorOf(Decks.deck(64, 1, 64, 16, 1, 16, "", "")).contains(
        "parthenon/mesh/nx3 = \"64\": expected 1 when nx2 = 1"));
  }

  @Test
  void givenAnUnknownRefinementOrBadNumlevel_thenTheyAreRejected() {
    assertTrue(errorOf(CUBE, "parthenon/mesh/refinement=amr").contains(
        "expected one of none, static, adaptive"));
    assertTrue(errorOf(CUBE, "parthenon/mesh/refinement=adaptive", "parthenon/mesh/numlevel=0")
        .contains("numlevel = \"0\": expected an integer >= 1"));
  }

  @Test
  void givenStaticRegions_thenTheyAreReadInDeckOrderWithMeshBoundsOnInactiveAxes() {
    String tail = "<parthenon/static_refinement0>\nx1min = 0.25\nx1max = 0.5\nx2min = 0\n"
        + "x2max = 1\nlevel = 2\n<parthenon/static_refinement1>\nx1min = 0\nx1max = 0.1\n"
        + "x2min = 0\nx2max = 0.1\nlevel = 1\n";
    MeshConfiguration c = Decks.config(Decks.deck(64, 64, 1, 16, 16, 1,
        "refinement = static\n", tail));
    assertEquals(2, c.staticRegions().size());
    StaticRefinementRegion first = c.staticRegions().get(0);
    assertEquals("parthenon/static_refinement0", first.block());
    assertEquals(0.25, first.xmin(0));
    assertEquals(2, first.level());
    assertEquals(0.0, first.x3min());
    assertEquals(1.0, first.x3max());
    // Without refinement the sections are ignored, as in Parthenon.
    assertEquals(List.of(), Decks.config(Decks.deck(64, 64, 1, 16, 16, 1, "", tail))
        .staticRegions());
  }

  @Test
  void givenBadStaticRegions_thenEachIsRejectedNamingTheSection() {
    String head = "refinement = adaptive\nnumlevel = 3\n";
    String region = "<parthenon/static_refinement0>\nx1min = 0.2\nx1max = 0.4\nx2min = 0\n"
        + "x2max = 1\nlevel = 2\n";
    String text = Decks.deck(64, 64, 1, 16, 16, 1, head, region);
    assertEquals(2, Decks.config(text).staticRegions().get(0).level());
    assertTrue(errorOf(text, "parthenon/static_refinement0/level=3").contains(
        "parthenon/static_refinement0/level = \"3\": expected at most 2, since "
            + "parthenon/mesh/numlevel = 3"));
    assertTrue(errorOf(text, "parthenon/static_refinement0/level=0").contains(
        "expected an integer >= 1 (the root grid is level 0)"));
    assertTrue(errorOf(text, "parthenon/static_refinement0/x1max=0.1").contains(
        "parthenon/static_refinement0/x1max = \"0.1\": expected a value >= x1min = 0.2"));
    assertTrue(errorOf(text, "parthenon/static_refinement0/x2max=1.5").contains(
        "expected a value inside the mesh, <= parthenon/mesh/x2max = 1"));
  }
}
