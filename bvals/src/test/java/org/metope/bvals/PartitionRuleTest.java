package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * Another rank's view of a block's partition agrees with the partitions the owning rank actually
 * builds ({@code Mesh.meshData}), for every block, rank count, pack size and number of packs per
 * rank (task threads; the 8 blocks on 3 ranks are 3, 3 and 2 per rank, so their packs differ).
 */
class PartitionRuleTest {

  private static Mesh mesh(int packSize, int packsPerRank, int nranks, int rank) {
    ParameterInput pin = ParameterInput.parse("rule.in", ExchangeFixture.periodic3d(packSize),
        List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin).withPacksPerRank(packsPerRank),
        nranks, rank);
    StateDescriptor pkg = new StateDescriptor("rule");
    pkg.addField("u", Metadata.of(MetadataFlag.CELL, MetadataFlag.FILL_GHOST));
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    return mesh;
  }

  @ParameterizedTest(name = "pack_size={0}, {1} packs per rank, on {2} ranks")
  @CsvSource({"-1, 1, 3", "1, 1, 3", "2, 1, 3", "3, 1, 2", "5, 1, 2", "2, 1, 1", "4, 1, 5",
      "-1, 2, 3", "-1, 3, 1", "-1, 4, 2", "-1, 2, 5", "3, 2, 2"})
  void givenAnyRank_thenItComputesEveryBlocksPartitionAsItsOwnerBuildsIt(int packSize,
      int packsPerRank, int nranks) {
    Mesh observer = mesh(packSize, packsPerRank, nranks, nranks - 1);
    int checked = 0;
    for (int owner = 0; owner < nranks; owner++) {
      Mesh owned = mesh(packSize, packsPerRank, nranks, owner);
      for (MeshData md : owned.meshData("base")) {
        for (int b = 0; b < md.numBlocks(); b++) {
          int gid = md.block(b).gid();
          assertEquals(md.partition(), PartitionRule.partitionOf(observer, gid), "gid " + gid);
          assertEquals(md.partition(), PartitionRule.partitionOf(owned, gid), "gid " + gid);
          checked++;
        }
      }
    }
    assertEquals(8, checked, "every block of the 2 x 2 x 2 mesh");
  }
}
