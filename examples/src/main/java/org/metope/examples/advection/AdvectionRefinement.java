package org.metope.examples.advection;

import org.metope.kernels.body.TagKernels;
import org.metope.kernels.body.TagLaunch;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.DoubleParam;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.RefinementCheck;
import org.metope.mesh.view.FieldView;

/**
 * The advection package's refinement criterion, Parthenon's: refine a block whose advected values
 * (ghosts included, every variable and component) exceed {@code refine_tol} somewhere and fall
 * below {@code derefine_tol} somewhere, derefine one whose values all stay below {@code
 * derefine_tol}. Each variable's range on a block is {@link TagKernels#minMaxRun}, on the host
 * ({@link #check}) or, for a device-resident backend, as one {@link TagLaunch} entry per block and
 * variable ({@link #onDevice}), whose ranges alone cross back; both then decide with {@link
 * #tag}. The tolerances are read when the tags are made.
 */
final class AdvectionRefinement implements RefinementCheck {
  private final DoubleParam refineTol;
  private final DoubleParam derefineTol;
  private final int numVars;

  AdvectionRefinement(DoubleParam refineTol, DoubleParam derefineTol, int numVars) {
    this.refineTol = refineTol;
    this.derefineTol = derefineTol;
    this.numVars = numVars;
  }

  @Override
  public void check(MeshData md, int[] tags) {
    Kept kept = kept(md);
    FieldView[] advected = kept.advected();
    double[] ranges = kept.ranges();
    double[] a = md.data();
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int var = 0; var < numVars; var++) {
        TagKernels.minMaxRun(a, advected[var].offset(b), advected[var].blockLength(), ranges,
            2 * var);
      }
      tags[b] = tag(ranges, 0);
    }
  }

  @Override
  public OnDevice onDevice(MeshData md) {
    FieldView[] advected = views(md);
    int[] t = new int[md.numBlocks() * numVars * TagLaunch.Kind.MIN_MAX.width];
    int e = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int var = 0; var < numVars; var++) {
        t[e + TagLaunch.FIRST] = advected[var].offset(b);
        t[e + TagLaunch.LENGTH] = advected[var].blockLength();
        e += TagLaunch.Kind.MIN_MAX.width;
      }
    }
    TagLaunch launch = new TagLaunch(TagLaunch.Kind.MIN_MAX, t, md.numBlocks() * numVars);
    int blocks = md.numBlocks();
    return new OnDevice() {
      @Override
      public TagLaunch launch() {
        return launch;
      }

      @Override
      public void tags(int[] tags) {
        for (int b = 0; b < blocks; b++) {
          tags[b] = tag(launch.results, 2 * numVars * b);
        }
      }
    };
  }

  /** A partition's views of the advected variables and the scratch of their ranges on a block. */
  private record Kept(FieldView[] advected, double[] ranges) {}

  /**
   * What {@link #check} reads on partition {@code md}, kept by the partition until its
   * allocation changes ({@link MeshData#keptView}): tags are made every cycle, and looking the
   * fields up by name each time was about 5 of the 190 main-thread samples of the framework's
   * per-cycle work (pinned, Parthenon's 2D adaptive deck). The scratch is the partition's own,
   * so task threads tagging other partitions share nothing.
   */
  private Kept kept(MeshData md) {
    if (md.keptView(this) instanceof Kept kept) {
      return kept;
    }
    Kept made = new Kept(views(md), new double[2 * numVars]);
    md.keepView(this, made);
    return made;
  }

  private FieldView[] views(MeshData md) {
    FieldView[] advected = new FieldView[numVars];
    for (int var = 0; var < numVars; var++) {
      advected[var] = FieldView.of(md, AdvectionPackage.advectedName(var));
    }
    return advected;
  }

  /**
   * The tag of a block from its variables' ranges, {@code min max} pairs from {@code
   * ranges[first]}, combined in variable order with {@link TagKernels#minMaxRun}'s comparisons
   * (so the range is that of all the block's values, bit for bit).
   */
  private int tag(double[] ranges, int first) {
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int var = 0; var < numVars; var++) {
      double lo = ranges[first + 2 * var];
      double hi = ranges[first + 2 * var + 1];
      min = lo < min ? lo : min;
      max = hi > max ? hi : max;
    }
    if (max > refineTol.get() && min < derefineTol.get()) {
      return AmrTag.REFINE_VALUE;
    }
    if (max < derefineTol.get()) {
      return AmrTag.DEREFINE_VALUE;
    }
    return AmrTag.SAME_VALUE;
  }
}
