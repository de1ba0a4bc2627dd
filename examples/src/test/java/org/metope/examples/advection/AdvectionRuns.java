package org.metope.examples.advection;

import org.metope.bvals.InOneBoundaryCommunication;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.metope.app.ApplicationRunner;
import org.metope.mesh.Mesh;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;

/** Whole advection runs for tests, through the framework's {@link InOneBoundaryCommunication}. */
final class AdvectionRuns {
  private AdvectionRuns() {}

  /** What a run left behind: the final mesh of one rank and what it printed. */
  record Result(Mesh mesh, String out, String err) {}

  /** Runs {@code deck} (a file) on one rank, writing outputs into {@code dir}. */
  static Result run(Path deck, Path dir, String... overrides) {
    ParameterInput pin = ParameterInput.load(deck, List.of(overrides));
    return run(pin, dir, InProcessCluster.singleRank());
  }

  /** Runs {@code pin} on the rank of {@code comm}. */
  static Result run(ParameterInput pin, Path dir, Communicator comm) {
    return run(pin, dir, comm, InOneBoundaryCommunication::fromInput);
  }

  /** Runs {@code pin} on the rank of {@code comm} with the boundary communication given. */
  static Result run(ParameterInput pin, Path dir, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    Mesh mesh = ApplicationRunner.simulate(new AdvectionApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, o), e, comm, boundaries)).mesh();
    return new Result(mesh, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Resumes from restart file {@code file} on the rank of {@code comm}, with {@code overrides}
   * applied to the file's deck, writing outputs into {@code dir}.
   */
  static Result restart(Path file, Path dir, Communicator comm, String... overrides) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    try (RestartFile rst = RestartFile.open(file)) {
      ParameterInput pin = ParameterInput.parse(file.toString(), rst.deck(), List.of(overrides));
      Mesh mesh = ApplicationRunner.simulate(new AdvectionApplication(), new ApplicationRunner.Launch(pin,
          new RunOptions(dir, Long.MAX_VALUE, o, true), e, comm,
          InOneBoundaryCommunication::fromInput, rst)).mesh();
      return new Result(mesh, out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    }
  }

  /**
   * Component 0 of {@code advected} in {@code base} on the interior cells of this rank's blocks,
   * block by block in gid order, each block {@code k, j, i} with {@code i} fastest (the layout of
   * Parthenon's HDF5 output without ghosts).
   */
  static double[] advected(Mesh mesh) {
    int cellsPerBlock = mesh.config().blockNx1() * mesh.config().blockNx2()
        * mesh.config().blockNx3();
    double[] values = new double[mesh.blocks().size() * cellsPerBlock];
    int n = 0;
    for (MeshData md : mesh.meshData("base")) {
      int field = md.state().fieldId("advected");
      for (int b = 0; b < md.numBlocks(); b++) {
        var cells = md.block(b).cellBounds();
        var ib = cells.boundsI(org.metope.mesh.geometry.IndexDomain.INTERIOR);
        var jb = cells.boundsJ(org.metope.mesh.geometry.IndexDomain.INTERIOR);
        var kb = cells.boundsK(org.metope.mesh.geometry.IndexDomain.INTERIOR);
        for (int k = kb.s(); k <= kb.e(); k++) {
          for (int j = jb.s(); j <= jb.e(); j++) {
            for (int i = ib.s(); i <= ib.e(); i++) {
              values[n++] = md.data()[md.index(field, b, 0, k, j, i)];
            }
          }
        }
      }
    }
    return values;
  }
}
