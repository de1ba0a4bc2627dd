package org.metope.mesh;

import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/** Small meshes with a toy package, for driver and output tests. */
public final class TestMeshes {
  private TestMeshes() {}

  /** A periodic 1D mesh of {@code nx} cells in blocks of {@code bx}, then {@code extra}. */
  public static String deck1d(int nx, int bx, String extra) {
    return "<parthenon/mesh>\nnx1 = " + nx + "\nx1min = 0\nx1max = 1\nix1_bc = periodic\n"
        + "ox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = " + bx + "\n" + extra;
  }

  /**
   * A package {@code toy} with an independent cell field {@code q} with fluxes and history
   * outputs that depend only on the block's gid: {@code vec} (sum, components 1 and gid), {@code
   * gids} (sum of gids), {@code top} (max gid), {@code bottom} (min of -gid); its time step limit
   * is {@code dt} on every block.
   */
  public static StateDescriptor toyPackage(double dt) {
    StateDescriptor pkg = new StateDescriptor("toy");
    pkg.addField("q", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.WITH_FLUXES,
        Metadata.FILL_GHOST).build());
    pkg.addHistoryOutput(HistoryOutput.vector(Operation.SUM, "vec", 2, (md, b, out) -> {
      out[0] = 1.0;
      out[1] = md.block(b).gid();
    }));
    pkg.addHistoryOutput(HistoryOutput.of(Operation.SUM, "gids", (md, b) -> md.block(b).gid()));
    pkg.addHistoryOutput(HistoryOutput.of(Operation.MAX, "top", (md, b) -> md.block(b).gid()));
    pkg.addHistoryOutput(HistoryOutput.of(Operation.MIN, "bottom",
        (md, b) -> -md.block(b).gid()));
    pkg.setEstimateTimestep(md -> dt);
    return pkg;
  }

  /** The mesh of {@code deck} with the given packages and containers, on one rank. */
  public static Mesh mesh(ParameterInput pin, Packages packages, List<String> containers) {
    return mesh(pin, packages, containers, InProcessCluster.singleRank());
  }

  /** The mesh of {@code deck} with the given packages and containers, on {@code comm}'s rank. */
  public static Mesh mesh(ParameterInput pin, Packages packages, List<String> containers,
      Communicator comm) {
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
    mesh.initializeFields(packages, containers);
    return mesh;
  }

  /** One package in a {@link Packages}. */
  public static Packages packages(StateDescriptor... pkgs) {
    Packages packages = new Packages();
    for (StateDescriptor p : pkgs) {
      packages.add(p);
    }
    return packages;
  }

  /** The deck text as a parameter input named {@code t.in}. */
  public static ParameterInput pin(String text, String... overrides) {
    return ParameterInput.parse("t.in", text, List.of(overrides));
  }
}
