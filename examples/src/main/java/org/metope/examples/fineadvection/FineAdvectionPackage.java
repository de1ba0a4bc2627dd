package org.metope.examples.fineadvection;

import java.util.List;
import org.metope.examples.advection.AdvectionPackage;
import org.metope.mesh.field.AmrTag;
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
 * The package of Parthenon's {@code fine_advection} example ({@code advection_package}): a scalar
 * {@code advection.phi} on the block's cells and its copy {@code advection.phi_fine} at twice the
 * resolution ({@code FINE}), both moved by donor-cell fluxes with the velocity {@code (vx, vy,
 * vz)}, and two face fields {@code advection.C} and {@code advection.D} changed by the
 * circulation of edge fluxes ({@link FineAdvectionFluxes}); derived: {@code
 * advection.phi_fine_restricted} (the average of each cell's fine cells), {@code advection.C_cc}
 * and {@code advection.D_cc} (the face fields averaged to cell centres, three components) and
 * {@code advection.divC}, {@code advection.divD} (their divergences). Blocks refine on {@code
 * phi}.
 *
 * <p>{@code <Advection>} keys (defaults, as Parthenon's): {@code cfl} (0.45), {@code vx} (1),
 * {@code vy} (0), {@code vz} (0), {@code refine_tol} (0.3), {@code derefine_tol} (0.03), {@code
 * profile} ({@code smooth_gaussian}, {@code hard_sphere} or {@code block}; Parthenon's default
 * {@code wave} is not implemented there either).
 */
public final class FineAdvectionPackage {
  /** The package label. */
  public static final String NAME = "advection_package";
  /** The deck block. */
  public static final String BLOCK = "Advection";
  /** The namespace of the package's fields, as Parthenon's {@code VARIABLE(advection, ...)}. */
  public static final String NAMESPACE = "advection.";
  static final String PHI = NAMESPACE + "phi";
  static final String PHI_FINE = NAMESPACE + "phi_fine";
  static final String PHI_FINE_RESTRICTED = NAMESPACE + "phi_fine_restricted";
  static final String C = NAMESPACE + "C";
  static final String D = NAMESPACE + "D";
  static final String C_CC = NAMESPACE + "C_cc";
  static final String D_CC = NAMESPACE + "D_cc";
  static final String DIV_C = NAMESPACE + "divC";
  static final String DIV_D = NAMESPACE + "divD";

  private FineAdvectionPackage() {}

  /** Reads {@code <Advection>} and declares the package (Parthenon's {@code Initialize}). */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("cfl", AdvectionPackage.courantNumber(pin));
    pkg.addParam("vx", pin.getOrAddReal(BLOCK, "vx", 1.0));
    pkg.addParam("vy", pin.getOrAddReal(BLOCK, "vy", 0.0));
    pkg.addParam("vz", pin.getOrAddReal(BLOCK, "vz", 0.0));
    pkg.addParam("refine_tol", pin.getOrAddReal(BLOCK, "refine_tol", 0.3));
    pkg.addParam("derefine_tol", pin.getOrAddReal(BLOCK, "derefine_tol", 0.03));
    String profile = pin.getOrAddString(BLOCK, "profile", "wave",
        List.of("wave", "smooth_gaussian", "hard_sphere", "block"));
    if (profile.equals("wave")) {
      throw pin.error(BLOCK, "profile", "smooth_gaussian, hard_sphere or block (fine_advection"
          + " has no wave profile, as in Parthenon)");
    }
    pkg.addParam("profile", profile);

    pkg.addField(PHI_FINE, Metadata.of(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT,
        Metadata.WITH_FLUXES, Metadata.FILL_GHOST));
    pkg.addField(PHI, Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.WITH_FLUXES,
        Metadata.FILL_GHOST));
    pkg.addField(PHI_FINE_RESTRICTED, Metadata.of(Metadata.CELL, Metadata.DERIVED,
        Metadata.ONE_COPY));
    Metadata face = Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.WITH_FLUXES,
            Metadata.FILL_GHOST)
        .refinementOps(RefinementOps.DEFAULT
            .withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE))
        .build();
    pkg.addField(C, face);
    pkg.addField(D, face);
    Metadata cellVector = Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY)
        .shape(3).build();
    pkg.addField(C_CC, cellVector);
    pkg.addField(D_CC, cellVector);
    pkg.addField(DIV_C, Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));
    pkg.addField(DIV_D, Metadata.of(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY));

    pkg.setCalculateFluxes(FineAdvectionFluxes::calculateFluxes);
    pkg.setCheckRefinementBlock(FineAdvectionPackage::checkRefinement);
    pkg.setEstimateTimestep(FineAdvectionPackage::estimateTimestep);
    pkg.setFillDerived(FineAdvectionDerived::fillDerived);
    return pkg;
  }

  /** The package's parameters, seen from a partition. */
  static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(NAME).params();
  }

  /**
   * Refine where {@code phi} somewhere on the block, ghosts included, exceeds {@code refine_tol}
   * and somewhere lies below {@code derefine_tol}; derefine where it lies below {@code
   * derefine_tol} everywhere (Parthenon's {@code CheckRefinement} of this example).
   */
  static int checkRefinement(MeshData md, int b) {
    FieldView phi = FineAdvectionViews.of(md).phi();
    IndexShape cells = md.block(b).cellBounds();
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int k = 0; k < cells.entireNcells(2); k++) {
      for (int j = 0; j < cells.entireNcells(1); j++) {
        for (int i = 0; i < cells.entireNcells(0); i++) {
          double v = phi.get(b, 0, k, j, i);
          min = v < min ? v : min;
          max = v > max ? v : max;
        }
      }
    }
    Params p = params(md);
    double derefineTol = p.getDouble("derefine_tol");
    if (max > p.getDouble("refine_tol") && min < derefineTol) {
      return AmrTag.REFINE_VALUE;
    }
    return max < derefineTol ? AmrTag.DEREFINE_VALUE : AmrTag.SAME_VALUE;
  }

  /**
   * {@code cfl} times the shortest time the flow takes to cross a cell along any axis, halved for
   * {@code phi_fine}'s cells (Parthenon's {@code EstimateTimestep}, its {@code robust::ratio}
   * included, so a zero velocity gives a huge step rather than a division by zero).
   */
  static double estimateTimestep(MeshData md) {
    if (md.numBlocks() == 0) {
      return Double.MAX_VALUE;
    }
    double[] v = FineAdvectionViews.of(md).velocity();
    double smallest = Double.MAX_VALUE;
    for (int b = 0; b < md.numBlocks(); b++) {
      UniformCartesian x = md.block(b).coords();
      for (int axis = 0; axis < 3; axis++) {
        smallest = Math.min(smallest, robustRatio(x.dx(axis), Math.abs(v[axis])));
      }
    }
    return params(md).getDouble("cfl") * smallest / 2.0;
  }

  /** {@code a / b} with {@code b} moved away from zero by ten times the smallest normal double. */
  private static double robustRatio(double a, double b) {
    double sign = b >= 0.0 ? 1.0 : -1.0;
    return a / (b + sign * 10.0 * Double.MIN_NORMAL);
  }

  /**
   * The first of cell {@code index}'s fine cells along {@code axis} ({@code index} itself along an
   * inactive axis): Parthenon's {@code (i - nghost) * 2 + nghost}.
   */
  static int fine(IndexShape cells, int axis, int index) {
    return cells.isActive(axis) ? (index - cells.nghost()) * 2 + cells.nghost() : index;
  }

  /** 1 along an active axis, 0 along an inactive one: the offset of a cell's second fine cell. */
  static int active(IndexShape cells, int axis) {
    return cells.isActive(axis) ? 1 : 0;
  }

  static int start(IndexShape shape, int axis, TopologicalElement el) {
    return shape.start(axis, IndexDomain.INTERIOR, el);
  }

  static int end(IndexShape shape, int axis, TopologicalElement el) {
    return shape.end(axis, IndexDomain.INTERIOR, el);
  }
}
