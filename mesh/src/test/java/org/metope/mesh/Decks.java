package org.metope.mesh;

import java.util.List;
import org.metope.mesh.input.ParameterInput;

/** Deck text for mesh tests. */
final class Decks {
  private Decks() {}

  /**
   * A deck with the given mesh cells per axis, blocks per axis and extra lines appended to
   * {@code <parthenon/mesh>}; bounds [0, 1] on every axis.
   */
  static String deck(int nx1, int nx2, int nx3, int bx1, int bx2, int bx3, String meshExtra,
      String tail) {
    return "<parthenon/mesh>\n"
        + "nx1 = " + nx1 + "\nx1min = 0.0\nx1max = 1.0\n"
        + "nx2 = " + nx2 + "\nx2min = 0.0\nx2max = 1.0\n"
        + "nx3 = " + nx3 + "\nx3min = 0.0\nx3max = 1.0\n"
        + meshExtra
        + "\n<parthenon/meshblock>\n"
        + "nx1 = " + bx1 + "\nnx2 = " + bx2 + "\nnx3 = " + bx3 + "\n"
        + tail;
  }

  /** All six boundaries periodic. */
  static String periodic() {
    return "ix1_bc = periodic\nox1_bc = periodic\nix2_bc = periodic\nox2_bc = periodic\n"
        + "ix3_bc = periodic\nox3_bc = periodic\n";
  }

  static ParameterInput parse(String text, String... overrides) {
    return ParameterInput.parse("t.in", text, List.of(overrides));
  }

  static MeshConfiguration config(String text, String... overrides) {
    return MeshConfiguration.fromInput(parse(text, overrides));
  }
}
