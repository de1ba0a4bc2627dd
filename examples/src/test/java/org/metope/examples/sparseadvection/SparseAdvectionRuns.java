package org.metope.examples.sparseadvection;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexRange;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;

/** Whole sparse_advection runs for tests. */
final class SparseAdvectionRuns {
  private SparseAdvectionRuns() {}

  /** What a run left behind: the final mesh of one rank and what it printed. */
  record Result(Mesh mesh, String out, String err) {}

  /** A file of the test resources {@code parthenon/sparse_advection}. */
  static Path resource(String name) {
    try {
      return Path.of(SparseAdvectionRuns.class.getResource("/parthenon/sparse_advection/" + name)
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs {@code deck} (a file) on one rank, writing outputs into {@code dir}. */
  static Result run(Path deck, Path dir, String... overrides) {
    ParameterInput pin = ParameterInput.load(deck, List.of(overrides));
    return run(pin, dir, InProcessCluster.singleRank());
  }

  /** Runs {@code pin} on the rank of {@code comm}. */
  static Result run(ParameterInput pin, Path dir, Communicator comm) {
    return run(pin, dir, comm, InOneBoundaryCommunication::fromInput);
  }

  /** Runs {@code pin} on the rank of {@code comm}, with boundary communication from {@code bc}. */
  static Result run(ParameterInput pin, Path dir, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> bc) {
    return run(new SparseAdvectionApplication(), pin, dir, comm, bc);
  }

  /** Runs {@code app} (sparse_advection or a wrapper of it) as above. */
  static Result run(Application app, ParameterInput pin, Path dir, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> bc) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    Mesh mesh = ApplicationRunner.simulate(app,
        new ApplicationRunner.Launch(pin, RunOptions.of(dir, o), e, comm, bc)).mesh();
    return new Result(mesh, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Resumes from restart {@code file} on the rank of {@code comm}, writing into {@code dir}. */
  static Result restart(Path file, Path dir, Communicator comm, String... overrides) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    try (RestartFile rst = RestartFile.open(file)) {
      ParameterInput pin = ParameterInput.parse(file.toString(), rst.deck(), List.of(overrides));
      Mesh mesh = ApplicationRunner.simulate(new SparseAdvectionApplication(),
          new ApplicationRunner.Launch(pin, new RunOptions(dir, Long.MAX_VALUE, o, true), e, comm,
              InOneBoundaryCommunication::fromInput, rst)).mesh();
      return new Result(mesh, out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    }
  }

  /**
   * Into {@code into}: for every block of this rank, by location, per field of the pool its
   * allocation (1 or 0) and, where allocated, its interior values in {@code base}, {@code i}
   * fastest.
   */
  static void interiors(Mesh mesh, Map<LogicalLocation, double[]> into) {
    for (MeshData md : mesh.meshData("base")) {
      List<FieldInfo> pool = md.state().sparseFields(SparseAdvectionPackage.POOL);
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape cells = md.block(b).cellBounds();
        IndexRange ib = cells.boundsI(IndexDomain.INTERIOR);
        IndexRange jb = cells.boundsJ(IndexDomain.INTERIOR);
        IndexRange kb = cells.boundsK(IndexDomain.INTERIOR);
        int per = cells.total(IndexDomain.INTERIOR);
        double[] values = new double[pool.size() * (per + 1)];
        int n = 0;
        for (FieldInfo field : pool) {
          boolean allocated = md.isAllocated(field.id(), b);
          values[n++] = allocated ? 1 : 0;
          for (int k = kb.s(); k <= kb.e(); k++) {
            for (int j = jb.s(); j <= jb.e(); j++) {
              for (int i = ib.s(); i <= ib.e(); i++) {
                values[n++] = allocated ? md.data()[md.index(field.id(), b, 0, k, j, i)] : 0;
              }
            }
          }
        }
        into.put(md.block(b).loc(), values);
      }
    }
  }
}
