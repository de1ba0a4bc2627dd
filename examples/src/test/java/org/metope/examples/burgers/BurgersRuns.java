package org.metope.examples.burgers;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.input.ParameterInput;

/** Whole Burgers runs for tests. */
final class BurgersRuns {
  private BurgersRuns() {}

  /** What a run left behind: the final mesh of one rank and what it printed. */
  record Result(Mesh mesh, String out, String err) {}

  /** Runs {@code deck} (a file) on one rank, writing outputs into {@code dir}. */
  static Result run(Path deck, Path dir, String... overrides) {
    ParameterInput pin = ParameterInput.load(deck, List.of(overrides));
    return run(pin, dir, InProcessCluster.singleRank());
  }

  /** Runs {@code pin} on the rank of {@code comm}. */
  static Result run(ParameterInput pin, Path dir, Communicator comm) {
    return run(new BurgersApplication(), pin, dir, comm, InOneBoundaryCommunication::fromInput);
  }

  /** Runs {@code pin} on the rank of {@code comm} with the boundary communication given. */
  static Result run(ParameterInput pin, Path dir, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    return run(new BurgersApplication(), pin, dir, comm, boundaries);
  }

  /** Runs {@code pin} with {@code application} on the rank of {@code comm}. */
  static Result run(Application application, ParameterInput pin, Path dir, Communicator comm) {
    return run(application, pin, dir, comm, InOneBoundaryCommunication::fromInput);
  }

  /** Runs {@code pin} with {@code application} and the boundary communication given. */
  static Result run(Application application, ParameterInput pin, Path dir,
      Communicator comm, Function<ParameterInput, BoundaryCommunication> boundaries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    Mesh mesh = ApplicationRunner.simulate(application, new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, o), e, comm, boundaries)).mesh();
    return new Result(mesh, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Into {@code into}: for every block of this rank, by location, the interior values of every
   * component of {@code U} in {@code base}, then of {@code derived}, {@code i} fastest.
   */
  static void interiors(Mesh mesh, Map<LogicalLocation, double[]> into) {
    for (MeshData md : mesh.meshData("base")) {
      int u = md.state().fieldId("U");
      int derived = md.state().fieldId("derived");
      int ncomp = md.layout().numComponents(md.layout().dataInstance(u, md.container()));
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        IndexRange ib = cells.boundsI(IndexDomain.INTERIOR);
        IndexRange jb = cells.boundsJ(IndexDomain.INTERIOR);
        IndexRange kb = cells.boundsK(IndexDomain.INTERIOR);
        int per = cells.total(IndexDomain.INTERIOR);
        double[] values = new double[(ncomp + 1) * per];
        int n = 0;
        for (int c = 0; c <= ncomp; c++) {
          for (int k = kb.s(); k <= kb.e(); k++) {
            for (int j = jb.s(); j <= jb.e(); j++) {
              for (int i = ib.s(); i <= ib.e(); i++) {
                values[n++] = c < ncomp ? md.data()[md.index(u, b, c, k, j, i)]
                    : md.data()[md.index(derived, b, 0, k, j, i)];
              }
            }
          }
        }
        into.put(md.block(b).loc(), values);
      }
    }
  }
}
