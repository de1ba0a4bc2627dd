package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one swarm's particles are stored in a block (Parthenon's {@code Swarm} variable list): the
 * variables with their components, the positions first. Every block's {@link Swarm} follows it.
 *
 * <p>Storage is struct-of-arrays, one flat array per component and one slot per particle, all of
 * one capacity:
 *
 * <pre>
 *   real components    0: swarm.x   1: swarm.y   2: swarm.z
 *                      3..: each real variable's components in declaration order
 *                           (a vector v of 3: v0 v1 v2; a 3x3 tensor vv: vv00 vv01 ... vv22)
 *   integer components 0..: each integer variable's components in declaration order
 *
 *   slot               0    1    2    3    4   ...  capacity-1
 *   real[c]         [  .    .    .    .    .   ...      .  ]   double[capacity] per component
 *   integer[c]      [  .    .    .    .    .   ...      .  ]   int[capacity] per component
 *   active          [  1    0    1    1    0   ...      0  ]   the free-slot mask
 * </pre>
 *
 * <p>A particle keeps its slot until it is removed or {@link Swarm#defrag} moves it. The layout
 * is a plan: it holds no data.
 */
public final class SwarmLayout {
  /**
   * The names of the three position variables every swarm has, Parthenon's ({@code
   * swarm_position}).
   */
  public static final List<String> POSITIONS = List.of("swarm.x", "swarm.y", "swarm.z");

  private final String name;
  private final Metadata metadata;
  private final Map<String, SwarmVariable> variables;
  private final int realComponents;
  private final int integerComponents;

  /**
   * The layout of swarm {@code name} with variables {@code declared} (name to metadata, in
   * declaration order), after the positions.
   */
  SwarmLayout(String name, Metadata metadata, Map<String, Metadata> declared) {
    this.name = name;
    this.metadata = metadata;
    Map<String, SwarmVariable> vars = new LinkedHashMap<>();
    int reals = 0;
    int ints = 0;
    for (String position : POSITIONS) {
      vars.put(position, new SwarmVariable(position, Metadata.of(Metadata.REAL), false, reals++,
          1));
    }
    for (Map.Entry<String, Metadata> e : declared.entrySet()) {
      Metadata m = e.getValue();
      boolean integer = m.isSet(MetadataFlag.INTEGER);
      int n = m.numComponents();
      vars.put(e.getKey(), new SwarmVariable(e.getKey(), m, integer, integer ? ints : reals, n));
      if (integer) {
        ints += n;
      } else {
        reals += n;
      }
    }
    this.variables = Collections.unmodifiableMap(vars);
    this.realComponents = reals;
    this.integerComponents = ints;
  }

  /** The swarm's name. */
  public String name() {
    return name;
  }

  /** The swarm's own metadata. */
  public Metadata metadata() {
    return metadata;
  }

  /** Every variable, positions first, then in declaration order. */
  public List<SwarmVariable> variables() {
    return new ArrayList<>(variables.values());
  }

  /** Whether the swarm has a variable of this name. */
  public boolean hasVariable(String variable) {
    return variables.containsKey(variable);
  }

  /** The variable of this name. */
  public SwarmVariable variable(String variable) {
    SwarmVariable v = variables.get(variable);
    if (v == null) {
      throw new IllegalArgumentException("swarm=" + name + " has no variable=" + variable
          + " (variables=" + variables.keySet() + ")");
    }
    return v;
  }

  /** Number of real components, the positions included. */
  public int realComponents() {
    return realComponents;
  }

  /** Number of integer components. */
  public int integerComponents() {
    return integerComponents;
  }

  @Override
  public String toString() {
    return "SwarmLayout[" + name + " " + variables.keySet() + "]";
  }
}
