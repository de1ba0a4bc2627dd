package org.metope.mesh.swarm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metope.mesh.BoundaryFace;

/**
 * The user particle boundary conditions an application registers, per face and deck name
 * (Parthenon's {@code ApplicationInput::RegisterSwarmBoundaryCondition}); a face whose deck name
 * ({@code ix1_bc = NAME}) is registered here for that face uses the function, in a {@link
 * SwarmExchange} made with this registry. {@code periodic} and {@code outflow} are built in.
 */
public final class SwarmBoundaryFunctions {
  /** Deck names with a built-in meaning for particles; they cannot be registered. */
  public static final List<String> BUILT_IN = List.of("periodic", "outflow");

  private final List<Map<String, SwarmBoundaryFunction>> byFace = new ArrayList<>();

  /** An empty registry: only the built-in conditions. */
  public SwarmBoundaryFunctions() {
    for (int f = 0; f < BoundaryFace.values().length; f++) {
      byFace.add(new LinkedHashMap<>());
    }
  }

  /**
   * Registers {@code function} for faces {@code face} whose deck name is {@code name}.
   *
   * @throws IllegalArgumentException for a built-in or blank name, or one registered twice
   */
  public SwarmBoundaryFunctions register(BoundaryFace face, String name,
      SwarmBoundaryFunction function) {
    if (name == null || name.isBlank() || BUILT_IN.contains(name) || function == null) {
      throw new IllegalArgumentException("a user particle condition needs a function and a name"
          + " other than " + BUILT_IN + ": name=" + name + " face=" + face);
    }
    if (byFace.get(face.ordinal()).putIfAbsent(name, function) != null) {
      throw new IllegalArgumentException("particle condition already registered: name=" + name
          + " face=" + face);
    }
    return this;
  }

  /** The function registered for {@code face} under {@code name}, or null. */
  SwarmBoundaryFunction find(BoundaryFace face, String name) {
    return byFace.get(face.ordinal()).get(name);
  }
}
