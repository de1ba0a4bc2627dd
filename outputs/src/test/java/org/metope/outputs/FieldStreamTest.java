package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessRun;
import org.metope.mesh.Mesh;
import org.metope.mesh.input.ParameterInput;

class FieldStreamTest {
  /** 64 blocks of 8 x 4 cells (no ghosts): q has 32 values per block, v 64. */
  private static Mesh mesh(org.metope.comm.Communicator comm) {
    ParameterInput pin = ParameterInput.parse("om.in", OutputMeshes.DECK,
        List.of("parthenon/mesh/nx1=64", "parthenon/mesh/nx2=32"));
    return OutputMeshes.mesh(pin, comm);
  }

  private static List<OutputVariable> variables(Mesh mesh) {
    return OutputVariable.selectByName(mesh.resolvedPackages(), List.of("q", "v"),
        PhdfWriter.blockShape(mesh), false);
  }

  /** Packs a value that names its gid, variable and place in the block. */
  private static FieldStream.BlockPacker packer(Mesh mesh, List<OutputVariable> variables) {
    return (v, lid, into, at) -> {
      int gid = mesh.blocks().get(lid).gid();
      for (int n = 0; n < v.valuesPerBlock(); n++) {
        into[at + n] = gid * 1000.0 + variables.indexOf(v) * 100.0 + n * 0.5;
      }
    };
  }

  /**
   * Three ranks, messages of three blocks of q (one and a half of v): rank 0 gets every value of
   * every variable once, in gid order, whatever rank holds the block.
   */
  @Test
  void givenThreeRanksAndSmallMessages_thenRankZeroGetsEveryValueInGidOrder() {
    double[][] received = new double[2][];
    InProcessRun.run(3, comm -> {
      Mesh mesh = mesh(comm);
      List<OutputVariable> variables = variables(mesh);
      FieldStream stream = new FieldStream(comm, 3 * 32 * 8);
      if (comm.rank() != 0) {
        stream.send(mesh.distribution(), variables, packer(mesh, variables));
        return;
      }
      List<List<Double>> values = List.of(new ArrayList<>(), new ArrayList<>());
      try {
        stream.receive(mesh.distribution(), variables, packer(mesh, variables),
            (v, chunk, length) -> {
              for (int n = 0; n < length; n++) {
                values.get(v).add(chunk[n]);
              }
            });
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      for (int v = 0; v < 2; v++) {
        received[v] = values.get(v).stream().mapToDouble(Double::doubleValue).toArray();
      }
      assertEquals(3 * 32, stream.largestBuffer(), "three blocks of q, one and a half of v");
    });
    for (int v = 0; v < 2; v++) {
      int perBlock = 32 * (v + 1);
      double[] expected = new double[64 * perBlock];
      for (int gid = 0; gid < 64; gid++) {
        for (int n = 0; n < perBlock; n++) {
          expected[gid * perBlock + n] = gid * 1000.0 + v * 100.0 + n * 0.5;
        }
      }
      assertArrayEquals(expected, received[v], "variable " + v);
    }
  }

  /**
   * A write that fails on rank 0 (a full disk) in the middle of the stream: rank 0 takes no more
   * chunks into the sink but still receives the rest, so every other rank's send returns, and then
   * throws the failure.
   */
  @Test
  void givenAWriteThatFailsMidStream_thenEveryRankIsReleasedAndRankZeroThrowsIt() {
    ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
    InProcessRun.run(3, comm -> {
      Mesh mesh = mesh(comm);
      List<OutputVariable> variables = variables(mesh);
      FieldStream stream = new FieldStream(comm, 32 * 8);
      if (comm.rank() != 0) {
        stream.send(mesh.distribution(), variables, packer(mesh, variables));
        outcomes.add("rank " + comm.rank() + " sent");
        return;
      }
      int[] calls = {0};
      FieldStream.ChunkSink failing = (v, chunk, length) -> {
        if (++calls[0] == 3) {
          throw new IOException("No space left on device");
        }
      };
      IOException e = assertThrows(IOException.class, () -> stream.receive(
          mesh.distribution(), variables, packer(mesh, variables), failing));
      assertEquals("No space left on device", e.getMessage());
      assertEquals(3, calls[0], "no chunk goes to the sink after the failure");
      outcomes.add("rank 0 done");
    });
    assertEquals(List.of("rank 0 done", "rank 1 sent", "rank 2 sent"),
        outcomes.stream().sorted().toList());
  }
}
