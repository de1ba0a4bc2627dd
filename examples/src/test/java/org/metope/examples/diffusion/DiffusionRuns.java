package org.metope.examples.diffusion;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.input.ParameterInput;

/** Whole diffusion runs for tests, in process, and what tests read from their final mesh. */
final class DiffusionRuns {
  private DiffusionRuns() {}

  /** Runs the deck {@code deck} with {@code overrides} on one rank; outputs go to {@code dir}. */
  static Mesh run(Path deck, Path dir, String... overrides) {
    return run(ParameterInput.load(deck, List.of(overrides)), dir,
        InProcessCluster.singleRank(), InOneBoundaryCommunication::fromInput);
  }

  /** Runs {@code pin} on the rank of {@code comm} with the boundary communication given. */
  static Mesh run(ParameterInput pin, Path dir, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    return ApplicationRunner.simulate(new DiffusionApplication(), new ApplicationRunner.Launch(
        pin, RunOptions.of(dir, discard), discard, comm, boundaries)).mesh();
  }

  /** The total heat of a one-rank mesh, blocks in gid order. */
  static double totalHeat(Mesh mesh) {
    double sum = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        sum += DiffusionPackage.totalHeat(md, b);
      }
    }
    return sum;
  }

  /** The interior values of {@code u} of this rank's blocks by gid, each {@code k, j, i}. */
  static Map<Integer, double[]> valuesByGid(Mesh mesh) {
    Map<Integer, double[]> values = new TreeMap<>();
    for (MeshData md : mesh.meshData("base")) {
      int u = md.state().fieldId("u");
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        double[] v = new double[cells.ncellsI(IndexDomain.INTERIOR)
            * cells.ncellsJ(IndexDomain.INTERIOR)
            * cells.ncellsK(IndexDomain.INTERIOR)];
        int n = 0;
        for (int k = DiffusionPackage.start(cells, 2); k <= DiffusionPackage.end(cells, 2); k++) {
          for (int j = DiffusionPackage.start(cells, 1); j <= DiffusionPackage.end(cells, 1);
              j++) {
            for (int i = DiffusionPackage.start(cells, 0); i <= DiffusionPackage.end(cells, 0);
                i++) {
              v[n++] = md.data()[md.index(u, b, 0, k, j, i)];
            }
          }
        }
        values.put(md.block(b).gid(), v);
      }
    }
    return values;
  }
}
