package org.metope.amr;

import org.metope.kernels.body.TagKernels;
import org.metope.kernels.body.TagLaunch;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;

/**
 * A built-in refinement criterion on one component of one field, configured by a {@code
 * <parthenon/refinementN>} section (Parthenon's {@code AMRCriteria}; see {@link
 * RefinementCriteria} for the keys). It measures each block over Parthenon's {@code AMRBounds}:
 * the interior cells plus one ghost layer along every axis with more than one interior cell, so
 * that the neighbour of every interior cell is looked at too. A field that is not allocated on a
 * block gives {@link AmrTag#SAME}.
 */
public abstract class RefinementCriterion {
  private final Settings settings;
  private final Bounds bounds;

  /**
   * The deck settings of a criterion.
   *
   * @param fieldId the field measured
   * @param component the flattened component measured
   * @param refineTol the measure above which a block refines ({@code refine_tol})
   * @param derefineTol the measure below which a block derefines ({@code derefine_tol})
   * @param maxLevel Parthenon's {@code max_level}: no refinement at this level above the root
   *     grid or deeper
   */
  public record Settings(int fieldId, int component, double refineTol, double derefineTol,
      int maxLevel) {}

  /** A criterion for blocks whose cells are {@code cells} (all blocks of a mesh share it). */
  RefinementCriterion(Settings settings, IndexShape cells) {
    this.settings = settings;
    this.bounds = new Bounds(cells);
  }

  /** The deck settings. */
  public Settings settings() {
    return settings;
  }

  /**
   * The criterion's {@link AmrTag} value for block {@code b} of {@code md} (before the {@code
   * max_level} rule, which {@link RefinementTagging} applies).
   */
  public final int check(MeshData md, int b) {
    int field = settings.fieldId();
    if (!md.isAllocated(field, b)) {
      return AmrTag.SAME_VALUE;
    }
    ArenaLayout layout = md.layout();
    int inst = layout.dataInstance(field, md.container());
    int base = md.dataOffset(field, b) + settings.component() * layout.componentStride(inst);
    return classify(measure(md.data(), base, layout.jStride(inst), layout.kStride(inst),
        bounds));
  }

  /**
   * The same measure of every block of {@code md} as one launch, one {@link TagLaunch.Kind#BOX}
   * entry per block (an empty box where the field is not allocated), which a device-resident
   * backend runs on its copy of the arena; {@link #tag} makes the tags of its results. Built once
   * per partition and layout.
   */
  public final TagLaunch launch(MeshData md) {
    final int width = TagLaunch.Kind.BOX.width;
    int field = settings.fieldId();
    ArenaLayout layout = md.layout();
    int inst = layout.dataInstance(field, md.container());
    int[] t = new int[md.numBlocks() * width];
    for (int b = 0; b < md.numBlocks(); b++) {
      int e = b * width;
      t[e + TagLaunch.IS + 4] = 0;
      t[e + TagLaunch.IS + 5] = -1;
      if (!md.isAllocated(field, b)) {
        continue;
      }
      t[e + TagLaunch.BASE] = md.dataOffset(field, b)
          + settings.component() * layout.componentStride(inst);
      t[e + TagLaunch.JSTRIDE] = layout.jStride(inst);
      t[e + TagLaunch.KSTRIDE] = layout.kStride(inst);
      int[] box = {bounds.is, bounds.ie, bounds.js, bounds.je, bounds.ks, bounds.ke};
      System.arraycopy(box, 0, t, e + TagLaunch.IS, box.length);
      t[e + TagLaunch.NDIM] = bounds.ndim;
      t[e + TagLaunch.METHOD] = method();
    }
    return new TagLaunch(TagLaunch.Kind.BOX, t, md.numBlocks());
  }

  /** {@link #check} of block {@code b} of {@code md} from the results of its {@link #launch}. */
  public final int tag(TagLaunch measured, MeshData md, int b) {
    return md.isAllocated(settings.fieldId(), b) ? classify(measured.results[b])
        : AmrTag.SAME_VALUE;
  }

  /**
   * The block's measure over {@code bounds} ({@link TagKernels#boxMeasure} with {@link
   * #method}); cell {@code (k, j, i)} of the component is {@code data[base + k * kStride + j *
   * jStride + i]}.
   */
  final double measure(double[] data, int base, int jStride, int kStride, Bounds bounds) {
    return TagKernels.boxMeasure(data, base, jStride, kStride, bounds.is, bounds.ie, bounds.js,
        bounds.je, bounds.ks, bounds.ke, bounds.ndim, method());
  }

  /** The measure, as {@link TagKernels#boxMeasure} names it ({@code DERIVATIVE_1}, ...). */
  abstract int method();

  /** The tag for a measure: Parthenon's comparison of the measure with the tolerances. */
  abstract int classify(double measure);

  /**
   * Parthenon's {@code AMRBounds}: interior bounds widened by one where an axis has more than one
   * interior cell; {@code ndim} counts those axes.
   */
  static final class Bounds {
    final int is;
    final int ie;
    final int js;
    final int je;
    final int ks;
    final int ke;
    final int ndim;

    Bounds(IndexShape cells) {
      int[] s = new int[3];
      int[] e = new int[3];
      int active = 0;
      for (int axis = 0; axis < 3; axis++) {
        var range = cells.bounds(axis, IndexDomain.INTERIOR,
            org.metope.mesh.geometry.TopologicalElement.CC);
        int widen = range.e() != range.s() ? 1 : 0;
        s[axis] = range.s() - widen;
        e[axis] = range.e() + widen;
        active += widen;
      }
      is = s[0];
      ie = e[0];
      js = s[1];
      je = e[1];
      ks = s[2];
      ke = e[2];
      ndim = Math.max(active, 1);
    }
  }
}
