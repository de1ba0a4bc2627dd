package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SwarmLayoutTest {

  /** Parthenon's particle_leapfrog declarations: id, a vector v of 3, a tensor vv of 3x3. */
  private static StateDescriptor leapfrogPackage() {
    StateDescriptor pkg = new StateDescriptor("particles_package");
    pkg.addSwarm("my_particles", Metadata.of(Metadata.PROVIDES, Metadata.NONE,
        Metadata.INDEPENDENT));
    pkg.addSwarmValue("id", "my_particles", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", "my_particles", Metadata.builder(Metadata.REAL, Metadata.VECTOR)
        .shape(3).build());
    pkg.addSwarmValue("vv", "my_particles", Metadata.builder(Metadata.REAL).shape(3, 3).build());
    return pkg;
  }

  @Test
  void givenLeapfrogsDeclarations_thenPositionsComeFirstAndComponentsAreNumberedPerType() {
    SwarmLayout layout = leapfrogPackage().swarms().get(0);
    assertEquals(List.of("swarm.x", "swarm.y", "swarm.z", "id", "v", "vv"),
        layout.variables().stream().map(SwarmVariable::name).toList());
    assertEquals(3 + 3 + 9, layout.realComponents());
    assertEquals(1, layout.integerComponents());
    assertEquals(2, layout.variable("swarm.z").firstComponent());
    assertTrue(layout.variable("id").integer());
    assertEquals(0, layout.variable("id").firstComponent());
    assertEquals(5, layout.variable("v").component(2));
    assertEquals(6 + 3 * 2 + 1, layout.variable("vv").component(2, 1));
    assertThrows(IllegalArgumentException.class, () -> layout.variable("v").component(3));
    assertThrows(IllegalArgumentException.class, () -> layout.variable("vv").component(3, 0));
    assertThrows(IllegalArgumentException.class, () -> layout.variable("w"));
  }

  @Test
  void givenBadDeclarations_thenEachIsRefused() {
    StateDescriptor pkg = leapfrogPackage();
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSwarm("my_particles", Metadata.of()));
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSwarmValue("swarm.x", "my_particles", Metadata.of()));
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSwarmValue("id", "my_particles", Metadata.of()));
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSwarmValue("w", "nobody", Metadata.of()));
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addSwarmValue("w", "my_particles", Metadata.of(Metadata.CELL)));
    assertThrows(IllegalArgumentException.class,
        () -> Metadata.of(Metadata.INTEGER, Metadata.REAL));
    assertThrows(IllegalArgumentException.class,
        () -> pkg.addField("n", Metadata.of(Metadata.CELL, Metadata.INTEGER)));
    assertFalse(pkg.swarmPresent("nobody"));
  }

  @Test
  void givenTwoPackagesDeclaringOneSwarm_thenResolutionNamesBoth() {
    StateDescriptor other = new StateDescriptor("other");
    other.addSwarm("my_particles", Metadata.of());
    Packages packages = Packages.of(leapfrogPackage(), other);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        packages::swarmLayouts);
    assertTrue(e.getMessage().contains("particles_package and other"), e.getMessage());
  }
}
