package org.metope.mesh.field;

import java.util.List;
import org.metope.kernels.body.StageLaunch;

/**
 * Work a package does on one partition of blocks in one stage container: fill derived fields
 * (and the pre-/post-/pre-communication variants), initialise newly allocated sparse fields.
 */
@FunctionalInterface
public interface MeshDataCallback {
  /** Does the work on every block of {@code md}. */
  void apply(MeshData md);

  /**
   * The same work as {@link #apply} on {@code md}, described as stage launches that a
   * device-resident kernel backend runs on its copy of the arena (built once per partition,
   * launched every stage); null (the default) when the callback runs on the host only.
   */
  default List<StageLaunch> launches(MeshData md) {
    return null;
  }
}
