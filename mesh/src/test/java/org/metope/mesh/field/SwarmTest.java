package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SwarmTest {

  /** A swarm with a real vector {@code v} of 3 and an integer {@code id}. */
  static SwarmLayout layout() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addSwarm("s", Metadata.of());
    pkg.addSwarmValue("id", "s", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", "s", Metadata.builder(Metadata.VECTOR).shape(3).build());
    return pkg.swarms().get(0);
  }

  private static int[] slots(Swarm swarm) {
    int[] slots = new int[swarm.newCount()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = swarm.newSlot(i);
    }
    return slots;
  }

  @Test
  void givenAnEmptySwarm_whenParticlesAreAdded_thenTheyTakeTheLowestSlotsInOrder() {
    Swarm swarm = new Swarm(layout());
    swarm.addEmptyParticles(3);
    assertArrayEquals(new int[] {0, 1, 2}, slots(swarm));
    assertEquals(3, swarm.numActive());
    assertEquals(2, swarm.maxActiveIndex());
    swarm.remove(1);
    swarm.remove(0);
    swarm.addEmptyParticles(3);
    assertArrayEquals(new int[] {0, 1, 3}, slots(swarm));
    assertEquals(3, swarm.maxActiveIndex());
  }

  @Test
  void givenAFullPool_whenMoreAreAdded_thenItGrowsAndKeepsTheValues() {
    Swarm swarm = new Swarm(layout());
    int id = swarm.layout().variable("id").firstComponent();
    int v1 = swarm.layout().variable("v").component(1);
    swarm.addEmptyParticles(Swarm.INITIAL_CAPACITY);
    for (int n = 0; n < Swarm.INITIAL_CAPACITY; n++) {
      swarm.integer(id)[n] = 100 + n;
      swarm.real(v1)[n] = 0.5 * n;
    }
    swarm.addEmptyParticles(Swarm.INITIAL_CAPACITY + 1);
    assertEquals(4 * Swarm.INITIAL_CAPACITY, swarm.capacity());
    assertEquals(2 * Swarm.INITIAL_CAPACITY + 1, swarm.numActive());
    for (int n = 0; n < Swarm.INITIAL_CAPACITY; n++) {
      assertEquals(100 + n, swarm.integer(id)[n]);
      assertEquals(0.5 * n, swarm.real(v1)[n]);
    }
    assertEquals(0, swarm.integer(id)[Swarm.INITIAL_CAPACITY]);
  }

  @Test
  void givenARemovedParticle_whenItsSlotIsReused_thenTheNewParticleStartsAtZero() {
    Swarm swarm = new Swarm(layout());
    swarm.addEmptyParticles(2);
    swarm.real(0)[0] = 7.0;
    swarm.integer(0)[0] = 7;
    swarm.remove(0);
    assertFalse(swarm.isActive(0));
    swarm.addEmptyParticles(1);
    assertEquals(0, swarm.newSlot(0));
    assertEquals(0.0, swarm.real(0)[0]);
    assertEquals(0, swarm.integer(0)[0]);
  }

  @Test
  void givenHoles_whenDefragmented_thenParticlesFillTheLowestSlotsWithTheirValues() {
    Swarm swarm = new Swarm(layout());
    swarm.addEmptyParticles(10);
    for (int n = 0; n < 10; n++) {
      swarm.integer(0)[n] = n;
      swarm.real(3)[n] = n + 0.25;
    }
    for (int n : new int[] {0, 3, 4, 8}) {
      swarm.markForRemoval(n);
    }
    swarm.removeMarkedParticles();
    assertEquals(6, swarm.numActive());
    assertEquals(9, swarm.maxActiveIndex());
    assertEquals(0.6, swarm.packingEfficiency(), 1e-15);
    swarm.defrag();
    assertEquals(5, swarm.maxActiveIndex());
    List<Integer> ids = new ArrayList<>();
    for (int n = 0; n < 10; n++) {
      assertEquals(n < 6, swarm.isActive(n), "slot " + n);
      if (n < 6) {
        ids.add(swarm.integer(0)[n]);
        assertEquals(swarm.integer(0)[n] + 0.25, swarm.real(3)[n]);
      }
    }
    // the highest particles fill the lowest holes: 9 -> 0, 7 -> 3, 6 -> 4
    assertEquals(List.of(9, 1, 2, 7, 6, 5), ids);
    swarm.addEmptyParticles(1);
    assertEquals(6, swarm.newSlot(0));
  }

  @Test
  void givenAFreeSlot_whenRemoved_thenItIsMisuse() {
    Swarm swarm = new Swarm(layout());
    swarm.addEmptyParticles(1);
    swarm.remove(0);
    assertThrows(IllegalStateException.class, () -> swarm.remove(0));
    assertThrows(IllegalStateException.class, () -> swarm.markForRemoval(0));
    assertEquals(-1, swarm.maxActiveIndex());
    assertTrue(swarm.packingEfficiency() == 1.0);
  }
}
