package org.metope.mesh;

/** The deck's {@code parthenon/mesh/refinement}: whether and how the mesh has several levels. */
public enum Refinement {
  /** One level: the root grid only ({@code none}, Parthenon's default). */
  NONE,
  /** Fixed refined regions from {@code <parthenon/static_refinementN>} sections. */
  STATIC,
  /** Refinement that follows the solution, up to {@code numlevel} levels. */
  ADAPTIVE;

  /** The deck spelling: {@code none}, {@code static} or {@code adaptive}. */
  public String deckName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
