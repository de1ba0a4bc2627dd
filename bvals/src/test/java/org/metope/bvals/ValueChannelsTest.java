package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelMap;
import org.metope.bvals.channel.PostingOrder;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.NeighborBlock;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * Every boundary-value channel {@link ValueChannels} hands a cache build is the one its key names
 * in the registry: the sending channel {@code (block, neighbour, field, element)} and the
 * receiving channel {@code (neighbour, block, field, reversed element)}, for every block, field
 * and neighbour of a multilevel periodic mesh, on one rank and on each of two, with coalesced
 * messages or without.
 */
class ValueChannelsTest {
  /** A 2D periodic mesh of 4 x 4 root blocks of 8^2 cells, refined twice around its centre. */
  static final String DECK = ElementMultilevelExchangeTest.deck(2, 32, 8, 3);

  /** {@link #DECK}'s mesh on {@code world}'s rank with two ghost-filled cell fields. */
  static Mesh twoFieldMesh(ParameterInput pin, Communicator world, List<String> containers) {
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    StateDescriptor pkg = new StateDescriptor("two_fields");
    pkg.addField("q", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST).shape(2).build());
    pkg.addField("r", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, containers);
    return mesh;
  }

  @ParameterizedTest(name = "ranks={0}, coalesce={1}")
  @CsvSource({"1, true", "2, true", "2, false"})
  void givenAMultilevelMesh_thenEveryChannelIsTheOneItsKeyNames(int ranks, boolean coalesce) {
    int[] checked = new int[ranks];
    InProcessRun.run(ranks, world -> {
      ParameterInput pin = ParameterInput.parse("channels.in", DECK, List.of());
      Mesh mesh = twoFieldMesh(pin, world, List.of("base"));
      try (KernelBackend backend = KernelBackends.create("jvm", 1)) {
        InOneBoundaryCommunication comm = new InOneBoundaryCommunication(backend,
            PostingOrder.cacheOrder(), SparseConfig.fromInput(pin), coalesce);
        comm.setup(mesh);
        ChannelMap map = comm.registry().boundaryValues();
        List<FieldInfo> fields = comm.ghostFields();
        for (MeshBlock block : mesh.blocks()) {
          List<NeighborBlock> neighbors = block.neighbors();
          for (int f = 0; f < fields.size(); f++) {
            int id = fields.get(f).id();
            for (int n = 0; n < neighbors.size(); n++) {
              NeighborBlock nb = neighbors.get(n);
              assertSame(map.require(new ChannelKey(block.gid(), nb.gid(), id,
                  nb.element().index())), comm.valueChannels().channel(block, f, n, true));
              assertSame(map.require(new ChannelKey(nb.gid(), block.gid(), id,
                  nb.element().reverse().index())), comm.valueChannels().channel(block, f, n,
                  false));
              checked[world.rank()]++;
            }
          }
        }
        assertEquals(2, fields.size());
        assertTrue(mesh.isMultilevel() && mesh.blocks().stream().anyMatch(
            b -> b.neighbors().stream().anyMatch(NeighborBlock::isFiner)), "refined neighbours");
      }
    });
    for (int r = 0; r < ranks; r++) {
      assertTrue(checked[r] > 0, "rank " + r + " checked no boundary");
    }
  }
}
