package org.metope.app;

import java.util.List;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.input.InputError;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;

/**
 * A restart keeps the mesh its file was written with: the block tree and the field data in the
 * file only fit that mesh. This check compares the mesh of the file's own deck with the mesh of
 * the deck after the command line's overrides, and refuses an override that changes it (mesh or
 * block size, extent, refinement, levels, ghost width) in one line naming the key, instead of a
 * failure deep in the tree code or a run on reinterpreted data.
 */
final class RestartMesh {
  private static final String MESH = "parthenon/mesh";
  private static final String MESHBLOCK = "parthenon/meshblock";

  private RestartMesh() {}

  /**
   * Checks that {@code resumed} (the file's deck with overrides) describes the mesh of {@code
   * original} (the file's deck as written).
   *
   * @param file the restart file's name, for the message
   * @throws InputError naming the first override that changes the mesh
   */
  static void requireUnchanged(String file, ParameterInput original, ParameterInput resumed) {
    MeshConfiguration was = MeshConfiguration.fromInput(original);
    MeshConfiguration now = MeshConfiguration.fromInput(resumed);
    for (int axis = 0; axis < 3; axis++) {
      String n = Integer.toString(axis + 1);
      same(file, resumed, MESH, "nx" + n, was.meshSize().nx(axis), now.meshSize().nx(axis));
      same(file, resumed, MESHBLOCK, "nx" + n, was.blockNx(axis), now.blockNx(axis));
      same(file, resumed, MESH, "x" + n + "min", was.meshSize().xmin(axis),
          now.meshSize().xmin(axis));
      same(file, resumed, MESH, "x" + n + "max", was.meshSize().xmax(axis),
          now.meshSize().xmax(axis));
    }
    same(file, resumed, MESH, "refinement", was.refinement().deckName(),
        now.refinement().deckName());
    same(file, resumed, MESH, "numlevel", was.numLevel(), now.numLevel());
    same(file, resumed, MESH, "nghost", was.nghost(), now.nghost());
    for (BoundaryFace face : BoundaryFace.values()) {
      // Periodicity shapes the neighbour graph; other boundary conditions may change.
      if (!"periodic".equals(was.boundaryName(face))
          && !"periodic".equals(now.boundaryName(face))) {
        continue;
      }
      same(file, resumed, MESH, face.deckKey(), was.boundaryName(face), now.boundaryName(face));
    }
  }

  /**
   * The mesh of {@code restart}'s blocks; a block list that is not a 2:1 balanced tree of {@code
   * config} (the file's other checks passed: {@link RestartFile#locationsFor}) is refused in one
   * line naming the file.
   */
  static Mesh build(MeshConfiguration config, Communicator communicator, RestartFile restart) {
    List<LogicalLocation> leaves = restart.locationsFor(config);
    try {
      return Mesh.build(config, communicator, leaves);
    } catch (IllegalArgumentException e) {
      throw restart.unusable("its blocks are not a 2:1 balanced tree of the mesh ("
          + e.getMessage() + ")");
    }
  }

  private static void same(String file, ParameterInput resumed, String block, String key,
      Object was, Object now) {
    if (!was.equals(now)) {
      throw resumed.error(block, key, was + " as in the restart file " + file + " (a restart"
          + " keeps the mesh it was written with; start a new run to change it)");
    }
  }
}
