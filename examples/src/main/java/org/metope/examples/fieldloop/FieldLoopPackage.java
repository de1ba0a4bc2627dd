package org.metope.examples.fieldloop;

import org.metope.mesh.Mesh;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.HistoryOutput.Operation;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.FieldView;

/**
 * The package of the field-loop example: a face field {@code B} (the magnetic field, one value
 * per face, {@code B1} on x1 faces, {@code B2} on x2 faces, {@code B3} on x3 faces) advected with
 * the constant velocity {@code (vx, vy, vz)}: {@code dB/dt = curl(v x B)}, by constrained
 * transport (its edge fluxes {@code v x B}, {@link FieldLoopFluxes}, and the Stokes update of the
 * flux driver), in two or three dimensions (in 3D the loop is a tube along x3).
 *
 * <p>{@code <field_loop>} keys (defaults): {@code vx} (2.0), {@code vy} (1.0), {@code vz} (0.0, 3D only), {@code
 * cfl} (0.4),
 * {@code amplitude} (1e-3) and {@code radius} (0.3) of the loop ({@link FieldLoopProblem}),
 * {@code refine_tol} (0.5) and {@code derefine_tol} (0.1): a block refines where some face has
 * {@code |B| > refine_tol * amplitude} and derefines where every face has less than {@code
 * derefine_tol * amplitude}.
 *
 * <p>Field {@code B}: face, independent, with (edge) fluxes, ghosts filled, Toth and Roe's
 * prolongation inside new fine cells. History: {@code max_divb}, the largest {@code |div B| dx /
 * amplitude} of any cell ({@code dx} the cell's smaller width).
 */
public final class FieldLoopPackage {
  /** The package label and its deck block. */
  public static final String NAME = "field_loop";
  private static final TopologicalElement[] FACES = {
      TopologicalElement.F1, TopologicalElement.F2, TopologicalElement.F3};

  private FieldLoopPackage() {}

  /** Reads {@code <field_loop>} and declares the package. */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("vx", pin.getOrAddReal(NAME, "vx", 2.0));
    pkg.addParam("vy", pin.getOrAddReal(NAME, "vy", 1.0));
    pkg.addParam("vz", pin.getOrAddReal(NAME, "vz", 0.0));
    pkg.addParam("cfl", pin.getOrAddPositiveReal(NAME, "cfl", 0.4,
        "a positive Courant number"));
    pkg.addParam("amplitude", pin.getOrAddPositiveReal(NAME, "amplitude", 1e-3,
        "a positive field strength"));
    pkg.addParam("radius", pin.getOrAddPositiveReal(NAME, "radius", 0.3,
        "a positive loop radius"));
    double refineTol = pin.getOrAddPositiveReal(NAME, "refine_tol", 0.5,
        "a positive |B|, relative to amplitude");
    pkg.addParam("refine_tol", refineTol);
    pkg.addParam("derefine_tol",
        pin.getOrAddRealBelow(NAME, "derefine_tol", 0.1, "refine_tol", refineTol));
    pkg.addField("B", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST)
        .refinementOps(RefinementOps.DEFAULT
            .withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE))
        .build());
    pkg.setCalculateFluxes(FieldLoopFluxes::calculateFluxes);
    pkg.setEstimateTimestepBlock(FieldLoopPackage::estimateTimestep);
    pkg.setCheckRefinementBlock(FieldLoopPackage::checkRefinement);
    pkg.addHistoryOutput(HistoryOutput.of(Operation.MAX, "max_divb",
        FieldLoopPackage::maxDivergence));
    return pkg;
  }

  /** The package's parameters, seen from a partition. */
  static Params params(MeshData md) {
    return Mesh.params(md, NAME);
  }

  /** {@code cfl} times the time the flow takes to cross a cell, on block {@code b}. */
  static double estimateTimestep(MeshData md, int b) {
    double[] v = FieldLoopViews.of(md).velocity();
    UniformCartesian x = md.block(b).coords();
    double crossing = Double.MAX_VALUE;
    for (int axis = 0; axis < md.block(b).mesh().config().ndim(); axis++) {
      crossing = Math.min(crossing, x.dx(axis) / Math.abs(v[axis]));
    }
    return params(md).getDouble("cfl") * crossing;
  }

  /** Refine where some interior face has a strong field, derefine where none has. */
  static int checkRefinement(MeshData md, int b) {
    Params p = params(md);
    FieldView field = FieldLoopViews.of(md).field();
    IndexShape cells = md.block(b).cellBounds();
    double largest = 0.0;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          for (TopologicalElement el : FACES) {
            largest = Math.max(largest, Math.abs(field.get(el, b, 0, k, j, i)));
          }
        }
      }
    }
    double amplitude = p.getDouble("amplitude");
    if (largest > p.getDouble("refine_tol") * amplitude) {
      return AmrTag.REFINE_VALUE;
    }
    return largest < p.getDouble("derefine_tol") * amplitude ? AmrTag.DEREFINE_VALUE
        : AmrTag.SAME_VALUE;
  }

  /**
   * The largest {@code |div B| dx / amplitude} of block {@code b}'s interior cells: the net flux
   * of {@code B} out of a cell over the cell's volume, times its smallest width.
   */
  static double maxDivergence(MeshData md, int b) {
    FieldView field = FieldLoopViews.of(md).field();
    UniformCartesian x = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    int ndim = md.block(b).mesh().config().ndim();
    double largest = 0.0;
    double width = Double.MAX_VALUE;
    for (int axis = 0; axis < ndim; axis++) {
      width = Math.min(width, x.dx(axis));
    }
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          double div = 0.0;
          for (int axis = 0; axis < ndim; axis++) {
            div += (field.get(FACES[axis], b, 0, k + (axis == 2 ? 1 : 0),
                j + (axis == 1 ? 1 : 0), i + (axis == 0 ? 1 : 0))
                - field.get(FACES[axis], b, 0, k, j, i)) / x.dx(axis);
          }
          largest = Math.max(largest, Math.abs(div));
        }
      }
    }
    return largest * width / params(md).getDouble("amplitude");
  }

  static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
