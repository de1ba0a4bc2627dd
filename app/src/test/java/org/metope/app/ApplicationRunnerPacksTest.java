package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.DriverStatus;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.input.ParameterInput;

/**
 * GIVEN a deck of 8 blocks THEN the partitions a driver sees follow {@code <metope> threads} where
 * {@code pack_size} is below 1: one pack with one thread (Parthenon's default), {@link
 * ApplicationRunner#PACKS_PER_THREAD} packs per thread with more (blocks over packs, rounded up);
 * a deck's {@code pack_size} wins.
 */
class ApplicationRunnerPacksTest {
  @TempDir Path dir;

  private static final String DECK = "<parthenon/mesh>\nnx1 = 32\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = periodic\nox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\n"
      + "x3min = 0\nx3max = 1\n<parthenon/meshblock>\nnx1 = 4\n<packs>\n";

  @ParameterizedTest(name = "threads={0} {1}")
  @CsvSource(delimiter = '|', value = {
      "1 | parthenon/mesh/pack_size=-1 | 8",
      "2 | parthenon/mesh/pack_size=-1 | 4 4",
      "3 | parthenon/mesh/pack_size=-1 | 3 3 2",
      "2 | parthenon/mesh/pack_size=3  | 3 3 2",
      "1 | parthenon/mesh/pack_size=3  | 3 3 2"})
  void givenThreadsAndPackSize_thenTheDriverSeesThesePartitions(int threads, String packSize,
      String expected) {
    ParameterInput pin = ParameterInput.parse("packs.in", DECK,
        List.of("metope/threads=" + threads, packSize.strip()));
    List<Integer> sizes = new ArrayList<>();
    Application app = new OneFieldApplication("packs", "u", new MetadataFlag[] {Metadata.CELL,
        Metadata.INDEPENDENT, Metadata.FILL_GHOST}, sim -> () -> {
          for (MeshData md : sim.mesh().meshData("base")) {
            sizes.add(md.numBlocks());
          }
          return DriverStatus.COMPLETE;
        });
    ApplicationRunner.simulate(app, new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, new PrintStream(new ByteArrayOutputStream())),
        new PrintStream(new ByteArrayOutputStream()), InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput));
    List<Integer> want = new ArrayList<>();
    for (String s : expected.strip().split(" ")) {
      want.add(Integer.parseInt(s));
    }
    assertEquals(want, sizes);
  }
}
