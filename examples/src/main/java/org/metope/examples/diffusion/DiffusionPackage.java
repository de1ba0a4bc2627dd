package org.metope.examples.diffusion;

import org.metope.mesh.Mesh;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * The package of the diffusion example: heat {@code u} diffusing with a constant diffusivity,
 * {@code du/dt = kappa laplacian(u)}, in finite-volume form (fluxes through faces, so the total
 * heat changes only through the domain's boundary, and with flux correction not at fine/coarse
 * faces either).
 *
 * <p>{@code <diffusion>} keys (defaults): {@code kappa} (1.0, the diffusivity), {@code cfl} (0.8,
 * the fraction of the explicit stability limit {@link HeatEquation#stableTimestep}), {@code
 * amplitude} (1.0) and {@code width} (0.05) of the initial Gaussian ({@link GaussianProfile}),
 * {@code refine_tol} (0.02) and {@code derefine_tol} (0.005): a block refines where {@code u}
 * changes by more than {@code refine_tol * amplitude} between neighbouring cells, and derefines
 * where it changes by less than {@code derefine_tol * amplitude} everywhere.
 *
 * <p>Field {@code u}: independent, with fluxes, ghosts filled. History: {@code total_heat}, the
 * integral of {@code u}.
 */
public final class DiffusionPackage {
  /** The package label and its deck block. */
  public static final String NAME = "diffusion";

  private DiffusionPackage() {}

  /** Reads {@code <diffusion>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("kappa", pin.getOrAddPositiveReal(NAME, "kappa", 1.0,
        "a positive diffusivity"));
    pkg.addParam("cfl", pin.getOrAddPositiveReal(NAME, "cfl", 0.8,
        "a positive fraction of the explicit stability limit (at most 1 is stable)"));
    pkg.addParam("amplitude", pin.getOrAddReal(NAME, "amplitude", 1.0));
    pkg.addParam("width", pin.getOrAddPositiveReal(NAME, "width", 0.05,
        "a positive width of the Gaussian"));
    double refineTol = pin.getOrAddPositiveReal(NAME, "refine_tol", 0.02,
        "a positive change of u per cell, relative to amplitude");
    pkg.addParam("refine_tol", refineTol);
    pkg.addParam("derefine_tol",
        pin.getOrAddRealBelow(NAME, "derefine_tol", 0.005, "refine_tol", refineTol));
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST).build());
    pkg.setCalculateFluxes(new DiffusionFluxes());
    pkg.setEstimateTimestepBlock(DiffusionPackage::estimateTimestep);
    pkg.setCheckRefinementBlock(DiffusionPackage::checkRefinement);
    pkg.addHistoryOutput(HistoryOutput.of(Operation.SUM, "total_heat",
        DiffusionPackage::totalHeat));
    return pkg;
  }

  /** The package's parameters, seen from a partition. */
  static Params params(MeshData md) {
    return Mesh.params(md, NAME);
  }

  /** The explicit limit on block {@code b}: {@code cfl} times the largest stable step. */
  static double estimateTimestep(MeshData md, int b) {
    Params p = params(md);
    UniformCartesian x = md.block(b).coords();
    return HeatEquation.stableTimestep(p.getDouble("kappa"), p.getDouble("cfl"),
        md.block(b).mesh().config().ndim(), x.dx(0), x.dx(1), x.dx(2));
  }

  /**
   * Refine where the largest change of {@code u} between an interior cell and its lower neighbour
   * (a ghost for the first cells; ghosts are filled when tags are made) along any active axis
   * exceeds {@code refine_tol * amplitude}; derefine where it stays below {@code
   * derefine_tol * amplitude}.
   */
  static int checkRefinement(MeshData md, int b) {
    Params p = params(md);
    double scale = Math.abs(p.getDouble("amplitude"));
    int u = md.state().fieldId("u");
    int ndim = md.block(b).mesh().config().ndim();
    IndexShape cells = md.block(b).cellBounds();
    double[] a = md.data();
    int base = md.index(u, b, 0, 0, 0, 0);
    int si = md.index(u, b, 0, 0, 0, 1) - base;
    int sj = md.index(u, b, 0, 0, 1, 0) - base;
    int sk = md.index(u, b, 0, 1, 0, 0) - base;
    double largest = 0.0;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          int c = md.index(u, b, 0, k, j, i);
          largest = Math.max(largest, Math.abs(a[c] - a[c - si]));
          if (ndim > 1) {
            largest = Math.max(largest, Math.abs(a[c] - a[c - sj]));
          }
          if (ndim > 2) {
            largest = Math.max(largest, Math.abs(a[c] - a[c - sk]));
          }
        }
      }
    }
    if (largest > p.getDouble("refine_tol") * scale) {
      return AmrTag.REFINE_VALUE;
    }
    return largest < p.getDouble("derefine_tol") * scale ? AmrTag.DEREFINE_VALUE
        : AmrTag.SAME_VALUE;
  }

  /** The heat in block {@code b}: the sum of {@code u} times the cell volume. */
  static double totalHeat(MeshData md, int b) {
    int u = md.state().fieldId("u");
    IndexShape cells = md.block(b).cellBounds();
    double[] a = md.data();
    double sum = 0.0;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          sum += a[md.index(u, b, 0, k, j, i)];
        }
      }
    }
    return sum * md.block(b).coords().cellVolume();
  }

  static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
