package org.metope.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.InputError;

/**
 * The multigrid levels of {@code multigrid = true}: Parthenon's count (the trailing zero bits of
 * the block width), the same blocks on the same ranks at every level, half the cells per level,
 * one boundary communication each; and the decks it refuses in one line.
 */
class MultigridLevelsTest {
  private static final String MG = "parthenon/mesh/multigrid=true";

  private static MultigridLevels levels(MeshConfiguration config, int nranks, int rank,
      List<Mesh> setUp) {
    Mesh leaf = Mesh.build(config, nranks, rank);
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("u", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    leaf.initializeFields(Packages.of(pkg), List.of("base"));
    return MultigridLevels.build(leaf, new InertBoundaryCommunication(), List.of("base"),
        coarse -> {
          setUp.add(coarse);
          return new InertBoundaryCommunication();
        });
  }

  @Test
  void givenBlocksOf32By8_thenFourLevelsBelowTheMeshWithTheSameBlocksOnTheSameRanks() {
    MeshConfiguration config = Decks.config(Decks.deck(64, 32, 1, 32, 8, 1, "", ""), MG);
    assertTrue(config.multigrid());
    assertEquals(3, config.multigridCoarsenings());
    for (int rank = 0; rank < 3; rank++) {
      List<Mesh> setUp = new ArrayList<>();
      MultigridLevels levels = levels(config, 3, rank, setUp);
      assertEquals(4, levels.count());
      assertEquals(3, setUp.size());
      Mesh leaf = levels.mesh(0);
      for (int m = 1; m < levels.count(); m++) {
        Mesh coarse = levels.mesh(m);
        assertEquals(setUp.get(m - 1), coarse);
        assertEquals(32 >> m, coarse.config().blockNx1());
        assertEquals(8 >> m, coarse.config().blockNx2());
        assertEquals(64 >> m, coarse.meshSize().nx(0));
        assertEquals(1, coarse.nghost());
        assertEquals(leaf.totalBlocks(), coarse.totalBlocks());
        assertEquals(leaf.blocks().size(), coarse.blocks().size());
        for (int b = 0; b < leaf.blocks().size(); b++) {
          MeshBlock fine = leaf.blocks().get(b);
          MeshBlock c = coarse.blocks().get(b);
          assertEquals(fine.gid(), c.gid());
          assertEquals(fine.region().xmin(0), c.region().xmin(0));
          assertEquals(fine.region().xmax(1), c.region().xmax(1));
          assertEquals(fine.coords().dx(0) * (1 << m), c.coords().dx(0));
        }
        assertTrue(coarse.fields() != null && coarse.meshData("base").size() > 0);
      }
    }
  }

  @Test
  void givenMultigridOff_thenNoLevelsAndCoarseningIsRefusedWithRefinement() {
    assertFalse(Decks.config(Decks.deck(64, 32, 1, 32, 8, 1, "", "")).multigrid());
    String error = assertThrows(InputError.class, () -> Decks.config(
        Decks.deck(64, 64, 1, 16, 16, 1, "", ""), MG, "parthenon/mesh/refinement=adaptive",
        "parthenon/mesh/numlevel=2")).getMessage();
    assertTrue(error.contains("multigrid") && !error.contains("\n"), error);
  }

  /** A 2x2x2 root grid is one tree in Parthenon, whose levels merge blocks: refused. */
  @Test
  void givenA3dRootGridOfOneTree_thenOneLineAndAnOddRootGridIsAccepted() {
    String error = assertThrows(InputError.class, () -> Decks.config(
        Decks.deck(32, 32, 32, 16, 16, 16, "", ""), MG)).getMessage();
    assertTrue(error.contains("groups its 8 root blocks into 1 tree, whose multigrid levels")
        && !error.contains("\n"), error);
    assertTrue(Decks.config(Decks.deck(32, 32, 16, 16, 16, 16, "", ""), MG).multigrid());
  }
}
