package org.metope.outputs.plot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.OutputSignal;
import org.metope.outputs.Outputs;

/**
 * Small {@code .phdf} files written by Metope's own HDF5 output for the plot tests, with fields
 * that are known functions of the cell centre {@code (x1, x2, x3)}:
 * {@code f = x1 + 2 x3} and a two-component {@code v = (x2, x1 + x2)}.
 */
final class PlotFiles {
  private PlotFiles() {}

  /**
   * 2D: 32 x 16 cells on [0, 2] x [0, 1] in blocks of 8 x 8 (4 x 2 root blocks of 0.5 x 0.5),
   * with the root block [0, 0.5] x [0, 0.5] refined once into four level-1 blocks of 0.25 x 0.25.
   */
  static final String DECK_2D = "<parthenon/job>\nproblem_id = p2\n"
      + "<parthenon/mesh>\nrefinement = static\nnumlevel = 2\n"
      + "nx1 = 32\nx1min = 0\nx1max = 2\nnx2 = 16\nx2min = 0\nx2max = 1\n"
      + "nx3 = 1\nx3min = -0.5\nx3max = 0.5\n"
      + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\n"
      + "<parthenon/static_refinement0>\nx1min = 0.01\nx1max = 0.49\nx2min = 0.01\n"
      + "x2max = 0.49\nlevel = 1\n";

  /** 3D: 16^3 cells on [0, 1]^3 in blocks of 8^3, uniform. */
  static final String DECK_3D = "<parthenon/job>\nproblem_id = p3\n"
      + "<parthenon/mesh>\nnx1 = 16\nx1min = 0\nx1max = 1\nnx2 = 16\nx2min = 0\nx2max = 1\n"
      + "nx3 = 16\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\nnx3 = 8\n";

  /** 1D: 32 cells on [0, 1] in blocks of 8. */
  static final String DECK_1D = "<parthenon/job>\nproblem_id = p1\n"
      + "<parthenon/mesh>\nnx1 = 32\nx1min = 0\nx1max = 1\n"
      + "nx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 8\n";

  private static final String OUTPUT = "<parthenon/output0>\nfile_type = hdf5\ndt = 1\n"
      + "write_xdmf = false\n<parthenon/time>\ntlim = 1\n";

  /** Writes the output of {@code deck} into {@code dir} and returns its path. */
  static Path write(String deck, Path dir) throws Exception {
    return write(deck, dir, "variables = f, v\n");
  }

  /**
   * Writes the output of {@code deck} with no field into {@code dir}, as an output of swarms
   * only is (no {@code variables}: Parthenon then writes no {@code /Info OutputDatasetNames}).
   */
  static Path writeWithoutFields(String deck, Path dir) throws Exception {
    return write(deck, dir, "");
  }

  /** Writes the output of {@code deck} into {@code dir} with FINE field {@code phi_fine} and {@code f}. */
  static Path writeWithFineField(String deck, Path dir) throws Exception {
    return write(deck, dir, "variables = phi_fine, f\n");
  }

  /**
   * Writes the output of {@code deck} into {@code dir} with fields {@code f, v} and swarm {@code
   * s}, one particle at each of {@code points} ({@code {x1, x2, x3}}).
   */
  static Path writeWithParticles(String deck, Path dir, double[]... points) throws Exception {
    return write(deck, dir, "variables = f, v\nswarms = s\n", points);
  }

  private static Path write(String deck, Path dir, String variables, double[]... points)
      throws Exception {
    Path into = Files.createDirectories(dir);
    InProcessRun.run(1, comm -> {
      ParameterInput pin = ParameterInput.parse("plot.in", deck + OUTPUT + "<parthenon/output0>\n"
          + variables, List.of());
      Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
      Packages packages = new Packages();
      packages.add(pkg());
      mesh.initializeFields(packages, List.of("base"));
      fill(mesh, "f", 0, x -> x[0] + 2 * x[2]);
      fill(mesh, "v", 0, x -> x[1]);
      fill(mesh, "v", 1, x -> x[0] + x[1]);
      for (double[] point : points) {
        place(mesh, point);
      }
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      new Outputs(mesh, pin, tm, into).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    });
    String id = deck.substring(deck.indexOf("problem_id = ") + 13, deck.indexOf("\n<parthenon/mesh"));
    return into.resolve(id + ".out0.00000.phdf");
  }

  private static StateDescriptor pkg() {
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addField("f", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT).build());
    pkg.addField("v", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.VECTOR)
        .shape(2).build());
    pkg.addField("phi_fine", Metadata.of(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT));
    pkg.addSwarm("s", Metadata.of());
    return pkg;
  }

  private static void place(Mesh mesh, double[] point) {
    for (MeshBlock block : mesh.blocks()) {
      boolean inside = true;
      for (int axis = 0; axis < 3; axis++) {
        inside &= point[axis] >= block.region().xmin(axis)
            && point[axis] < block.region().xmax(axis);
      }
      if (inside) {
        Swarm swarm = mesh.swarms().swarm(block.lid(), "s");
        swarm.addEmptyParticles(1);
        int n = swarm.newSlot(0);
        for (int axis = 0; axis < 3; axis++) {
          swarm.real(axis)[n] = point[axis];
        }
      }
    }
  }

  private static void fill(Mesh mesh, String field, int component,
      ToDoubleFunction<double[]> value) {
    FieldStorage storage = mesh.fields();
    ArenaLayout layout = storage.layout();
    int inst = layout.dataInstance(mesh.resolvedPackages().fieldId(field), 0);
    double[] x = new double[3];
    for (int b = 0; b < mesh.blocks().size(); b++) {
      MeshBlock block = mesh.blocks().get(b);
      UniformCartesian coords = block.coords();
      for (int k = 0; k < layout.nk(inst); k++) {
        for (int j = 0; j < layout.nj(inst); j++) {
          for (int i = 0; i < layout.ni(inst); i++) {
            x[0] = coords.xc(0, i);
            x[1] = coords.xc(1, j);
            x[2] = coords.xc(2, k);
            storage.data()[layout.index(inst, b, component, k, j, i)] = value.applyAsDouble(x);
          }
        }
      }
    }
  }
}
