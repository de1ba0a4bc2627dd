package org.metope.mesh.field;

import org.metope.kernels.body.TagLaunch;

/**
 * A package's refinement criterion over one partition (Parthenon's {@code CheckRefinementMesh}).
 */
@FunctionalInterface
public interface RefinementCheck {
  /**
   * Writes one {@link AmrTag} value per block of {@code md}: {@code tags[b]} for block {@code b}
   * of the partition. The array arrives filled with {@link AmrTag#DEREFINE_VALUE}, so a package
   * need only write the blocks it wants kept or refined.
   */
  void check(MeshData md, int[] tags);

  /**
   * The same criterion on {@code md} in a form a device-resident kernel backend runs on its copy
   * of the arena (built once per partition and layout, measured at every tagging), so that only
   * the measures cross to the host; null (the default) when the criterion runs on the host only,
   * which then brings the whole arena to the host to tag.
   */
  default OnDevice onDevice(MeshData md) {
    return null;
  }

  /** A criterion's device form: the measures, and the tags the host makes of them. */
  interface OnDevice {
    /** The measures, run by the backend before {@link #tags}. */
    TagLaunch launch();

    /**
     * Writes one {@link AmrTag} value per block of the partition from {@code launch().results},
     * as {@link RefinementCheck#check} would from the cells.
     */
    void tags(int[] tags);
  }
}
