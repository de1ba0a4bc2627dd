package org.metope.outputs;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.forest.RootGrid;

/**
 * The checks every value read from a restart file passes before a run uses it, as a deck's values
 * pass theirs: the clock, the block tree and the field values. A file whose seal matches can still
 * hold values no run writes (a hand edit sealed again, a bug): each is refused in one line naming
 * the file and the value.
 */
final class RestartChecks {
  private RestartChecks() {}

  /**
   * Refuses a clock no run can have written, as the deck's checks refuse it in a deck: a time that
   * is not finite, a step that is not positive and finite, a negative cycle.
   */
  static void requireClock(Path file, double time, double dt, int ncycle) {
    if (!Double.isFinite(time)) {
      throw RestartFile.broken(file, "Info/Time is " + time + ", expected a finite time");
    }
    if (!(dt > 0.0 && dt < Double.POSITIVE_INFINITY)) {
      throw RestartFile.broken(file, "Info/dt is " + dt
          + ", expected a positive finite time step");
    }
    if (ncycle < 0) {
      throw RestartFile.broken(file, "Info/NCycle is " + ncycle
          + ", expected a cycle number >= 0");
    }
  }

  /**
   * Refuses block locations no mesh of {@code config} has: a level outside the root level to the
   * deepest level, an index outside the domain at its level (an offset along an axis the mesh
   * does not have included), a location given twice, or one inside another. What remains can only
   * fail to be 2:1 balanced, which building the mesh checks; these checks keep that build bounded.
   */
  static void requireTree(Path file, MeshConfiguration config,
      List<LogicalLocation> locations) {
    RootGrid grid = config.rootGrid();
    Set<LogicalLocation> seen = new HashSet<>();
    for (int gid = 0; gid < locations.size(); gid++) {
      LogicalLocation loc = locations.get(gid);
      if (loc.level() < grid.rootLevel() || loc.level() > config.maxLevel()) {
        throw RestartFile.broken(file, "block " + gid + " is at level " + loc.level()
            + ", the mesh has levels " + grid.rootLevel() + " to " + config.maxLevel());
      }
      if (!grid.contains(loc)) {
        throw RestartFile.broken(file, "block " + gid + " at " + loc + " lies outside the mesh");
      }
      if (!seen.add(loc)) {
        throw RestartFile.broken(file, "block " + gid + " at " + loc + " is given twice");
      }
    }
    for (int gid = 0; gid < locations.size(); gid++) {
      LogicalLocation loc = locations.get(gid);
      for (int up = 1; loc.level() - up >= grid.rootLevel(); up++) {
        if (seen.contains(loc.ancestor(up))) {
          throw RestartFile.broken(file, "block " + gid + " at " + loc + " lies inside block "
              + loc.ancestor(up));
        }
      }
    }
  }

  /**
   * Refuses a field value that is not finite (no run writes one: the driver stops at the first),
   * naming the field and the block, instead of a run whose history is all NaN.
   */
  static void requireFinite(Path file, String label, double[] values, int perBlock,
      int firstGid) {
    for (int n = 0; n < values.length; n++) {
      if (!Double.isFinite(values[n])) {
        throw RestartFile.broken(file, "field " + label + " has the value " + values[n]
            + " in block " + (firstGid + n / perBlock) + ", expected finite values");
      }
    }
  }
}
