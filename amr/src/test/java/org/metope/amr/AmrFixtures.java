package org.metope.amr;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.mesh.InertBoundaryCommunication;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/** Small adaptive meshes, a toy package whose tags a test sets, and a do-nothing exchange. */
public final class AmrFixtures {
  private AmrFixtures() {}

  /**
   * A periodic adaptive 2D deck of {@code nx x nx} cells in blocks of {@code bx x bx} on [0, 1]^2
   * with {@code numlevel} levels, then {@code extra} appended.
   */
  public static String deck2d(int nx, int bx, int numlevel, String extra) {
    return "<parthenon/mesh>\nrefinement = adaptive\nnumlevel = " + numlevel + "\n"
        + "nx1 = " + nx + "\nx1min = 0\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
        + "nx2 = " + nx + "\nx2min = 0\nx2max = 1\nix2_bc = periodic\nox2_bc = periodic\n"
        + "nx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = " + bx + "\nnx2 = " + bx + "\nnx3 = 1\n" + extra;
  }

  /** The same in 3D: {@code nx^3} cells in blocks of {@code bx^3}. */
  static String deck3d(int nx, int bx, int numlevel, String extra) {
    return "<parthenon/mesh>\nrefinement = adaptive\nnumlevel = " + numlevel + "\n"
        + "nx1 = " + nx + "\nx1min = 0\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
        + "nx2 = " + nx + "\nx2min = 0\nx2max = 1\nix2_bc = periodic\nox2_bc = periodic\n"
        + "nx3 = " + nx + "\nx3min = 0\nx3max = 1\nix3_bc = periodic\nox3_bc = periodic\n"
        + "<parthenon/meshblock>\nnx1 = " + bx + "\nnx2 = " + bx + "\nnx3 = " + bx + "\n"
        + extra;
  }

  public static ParameterInput pin(String text, String... overrides) {
    return ParameterInput.parse("t.in", text, List.of(overrides));
  }

  /** Each block's tag by location, set by the test; blocks not listed get {@link #otherwise}. */
  public static final class Tags {
    public final Map<LogicalLocation, Integer> byLocation = new ConcurrentHashMap<>();
    public volatile int otherwise = AmrTag.SAME_VALUE;

    public void check(MeshData md, int[] tags) {
      for (int b = 0; b < md.numBlocks(); b++) {
        tags[b] = byLocation.getOrDefault(md.block(b).loc(), otherwise);
      }
    }
  }

  /**
   * Package {@code toy}: {@code q} (independent, filled in ghosts: it has a coarse buffer), {@code
   * d} (derived, one copy: no coarse buffer) and the sparse pool {@code s} with ids 1 and 2
   * (independent), tagged by {@code tags}.
   */
  public static StateDescriptor toy(Tags tags) {
    StateDescriptor pkg = new StateDescriptor("toy");
    pkg.addField("q", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST,
        Metadata.WITH_FLUXES).build());
    pkg.addField("d", Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY)
        .build());
    pkg.addSparsePool("s", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.FILL_GHOST, Metadata.SPARSE).build(), 1, 2);
    if (tags != null) {
      pkg.setCheckRefinement(tags::check);
    }
    return pkg;
  }

  /** The mesh of {@code pin} with {@code pkg}, containers {@code base} and {@code 1}. */
  public static Mesh mesh(ParameterInput pin, StateDescriptor pkg, Communicator comm) {
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), comm);
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base", "1"));
    return mesh;
  }

  /** {@code field} = a + b x + c y + e z at every cell centre of {@code base}, ghosts included. */
  static void fillLinear(Mesh mesh, String field, double a, double b, double c, double e) {
    for (MeshData md : mesh.meshData("base")) {
      int f = md.state().fieldId(field);
      for (int blk = 0; blk < md.numBlocks(); blk++) {
        if (!md.isAllocated(f, blk)) {
          continue;
        }
        UniformCartesian xs = md.block(blk).coords();
        var cells = md.block(blk).cellBounds();
        for (int k = 0; k < cells.entireNcells(2); k++) {
          for (int j = 0; j < cells.entireNcells(1); j++) {
            for (int i = 0; i < cells.entireNcells(0); i++) {
              md.data()[md.index(f, blk, 0, k, j, i)] =
                  a + b * xs.x1c(i) + c * xs.x2c(j) + e * xs.x3c(k);
            }
          }
        }
      }
    }
  }

  /** Boundary communication that does nothing but count setups and ghost fills. */
  public static final class NoExchange extends InertBoundaryCommunication {
    public int setups;
    public int fills;
    public int releases;

    @Override
    public void setup(Mesh mesh) {
      setups++;
    }

    @Override
    public void release() {
      releases++;
    }






    @Override
    public void fillGhosts(Mesh mesh, String container) {
      fills++;
    }
  }
}
