package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The swarms one package declares (Parthenon's {@code AddSwarm} and {@code AddSwarmValue}), in
 * declaration order, each with its variables; {@link #layouts} turns them into {@link
 * SwarmLayout}s.
 */
final class SwarmDeclarations {
  private final String packageLabel;
  private final Map<String, Metadata> swarms = new LinkedHashMap<>();
  private final Map<String, Map<String, Metadata>> values = new LinkedHashMap<>();

  SwarmDeclarations(String packageLabel) {
    this.packageLabel = packageLabel;
  }

  void addSwarm(String name, Metadata metadata) {
    StateDescriptor.checkName(name);
    if (swarms.containsKey(name)) {
      throw new IllegalArgumentException("package=" + packageLabel + " swarm=" + name
          + " is declared twice");
    }
    if (metadata.isMeshTied()) {
      throw new IllegalArgumentException("package=" + packageLabel + " swarm=" + name
          + " must not have a mesh topology (metadata=" + metadata + ")");
    }
    swarms.put(name, metadata);
    values.put(name, new LinkedHashMap<>());
  }

  void addValue(String name, String swarm, Metadata metadata) {
    StateDescriptor.checkName(name);
    Map<String, Metadata> vars = values.get(swarm);
    if (vars == null) {
      throw new IllegalArgumentException("package=" + packageLabel + " has no swarm=" + swarm
          + " for value=" + name + ": call addSwarm first");
    }
    if (vars.containsKey(name) || SwarmLayout.POSITIONS.contains(name)) {
      throw new IllegalArgumentException("package=" + packageLabel + " swarm=" + swarm
          + " value=" + name + " is declared twice (swarm.x, swarm.y and swarm.z are the"
          + " positions)");
    }
    if (metadata.isMeshTied()) {
      throw new IllegalArgumentException("package=" + packageLabel + " swarm=" + swarm
          + " value=" + name + " must not have a mesh topology (metadata=" + metadata + ")");
    }
    vars.put(name, metadata);
  }

  boolean contains(String swarm) {
    return swarms.containsKey(swarm);
  }

  List<SwarmLayout> layouts() {
    List<SwarmLayout> layouts = new ArrayList<>();
    for (Map.Entry<String, Metadata> e : swarms.entrySet()) {
      layouts.add(new SwarmLayout(e.getKey(), e.getValue(), values.get(e.getKey())));
    }
    return layouts;
  }
}
