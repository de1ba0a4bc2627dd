package org.metope.outputs;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.metope.comm.InProcessRun;
import org.metope.mesh.SimTime;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * A 2D mesh of 16 x 8 cells in 8 x 4 blocks (4 blocks, 2 ghosts) with a package {@code pkg} of
 * fields of every kind an HDF5 output handles, filled with a known function of (gid, field,
 * component, k, j, i), ghosts included.
 */
final class OutputMeshes {
  private OutputMeshes() {}

  static final String DECK = "<parthenon/job>\nproblem_id = om\n"
      + "<parthenon/mesh>\nnx1 = 16\nx1min = -1\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
      + "nx2 = 8\nx2min = 0\nx2max = 0.5\nix2_bc = outflow\nox2_bc = outflow\n"
      + "nx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 8\nnx2 = 4\n"
      + "<parthenon/time>\ntlim = 1.0\n";

  /** The package: q (scalar), v (two labelled components), s_1 and s_2 (sparse), d (derived). */
  static StateDescriptor pkg() {
    StateDescriptor pkg = new StateDescriptor("pkg");
    pkg.addField("q", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST).build());
    pkg.addField("v", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.VECTOR,
        Metadata.FILL_GHOST).shape(2).componentLabels("vx", "vy").build());
    pkg.addSparsePool("s", Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY,
        Metadata.SPARSE, Metadata.RESTART).shape(1).build(), 1, 2);
    pkg.addField("d", Metadata.builder(Metadata.CELL, Metadata.ONE_COPY).build());
    pkg.addParam("cfl", 0.25);
    pkg.addParam("n", 7);
    pkg.addParam("flag", true);
    pkg.addParam("name", "hello");
    pkg.addParam("counter", 3, Params.Mutability.RESTART);
    return pkg;
  }

  static ParameterInput pin(String extra) {
    return ParameterInput.parse("om.in", DECK + extra, List.of());
  }

  /** The mesh on {@code comm}'s rank, fields allocated (containers base and 1) but not filled. */
  static Mesh mesh(ParameterInput pin, Communicator comm) {
    return mesh(pin, comm, pkg(), "base", "1");
  }

  /** The mesh on {@code comm}'s rank with {@code pkg}'s fields in {@code containers}. */
  static Mesh mesh(ParameterInput pin, Communicator comm, StateDescriptor pkg,
      String... containers) {
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of(containers));
    return mesh;
  }

  /**
   * Writes the deck's outputs ({@code outputBlocks} after {@link #DECK}) at the end of a run, on
   * {@code ranks} ranks into {@code dir}: each rank's mesh made by {@code mesh}, then filled.
   */
  static void writeFinal(Path dir, int ranks, String outputBlocks,
      BiFunction<ParameterInput, Communicator, Mesh> mesh, Consumer<Mesh> fill) {
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = pin(outputBlocks);
      Mesh m = mesh.apply(pin, comm);
      fill.accept(m);
      SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
      new Outputs(m, pin, tm, dir).makeOutputs(m, tm, OutputSignal.FINAL, () -> { });
    });
  }

  /** The value of (gid, field, c, k, j, i): distinct for every cell of every field. */
  static double value(int gid, int field, int c, int k, int j, int i) {
    return gid * 1.0e4 + field * 1.0e3 + c * 100.0 + k * 50.0 + j * 10.0 + i + 0.125;
  }

  /** Fills every allocated field of base with {@link #value}; allocates s_1 on gid 1 only. */
  static void fill(Mesh mesh) {
    FieldStorage storage = mesh.fields();
    int s1 = mesh.resolvedPackages().fieldId("s_1");
    for (int b = 0; b < mesh.blocks().size(); b++) {
      if (mesh.blocks().get(b).gid() == 1) {
        storage.allocateSparse(s1, b);
      }
    }
    ArenaLayout layout = storage.layout();
    for (FieldInfo f : mesh.resolvedPackages().fields()) {
      int inst = layout.dataInstance(f.id(), 0);
      for (int b = 0; b < mesh.blocks().size(); b++) {
        if (!storage.isAllocated(f.id(), b)) {
          continue;
        }
        int gid = mesh.blocks().get(b).gid();
        for (int c = 0; c < f.numComponents(); c++) {
          for (int k = 0; k < layout.nk(inst); k++) {
            for (int j = 0; j < layout.nj(inst); j++) {
              for (int i = 0; i < layout.ni(inst); i++) {
                storage.data()[layout.index(inst, b, c, k, j, i)] = value(gid, f.id(), c, k, j, i);
              }
            }
          }
        }
      }
    }
  }
}
