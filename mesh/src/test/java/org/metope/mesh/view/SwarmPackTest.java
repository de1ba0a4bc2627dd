package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.Mesh;
import org.metope.mesh.TestMeshes;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;

class SwarmPackTest {

  private static Mesh mesh() {
    StateDescriptor pkg = TestMeshes.toyPackage(1.0);
    pkg.addSwarm("s", Metadata.of());
    pkg.addSwarmValue("id", "s", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("v", "s", Metadata.builder(Metadata.VECTOR).shape(2).build());
    return TestMeshes.mesh(TestMeshes.pin(TestMeshes.deck1d(16, 4, "")),
        TestMeshes.packages(pkg), List.of("base"));
  }

  @Test
  void givenParticlesOnEveryBlock_whenPushedInAParForLoop_thenEachMovesByItsOwnVelocity() {
    Mesh mesh = mesh();
    MeshData md = mesh.meshData("base").get(0);
    SwarmPack pack = SwarmPack.of(md, "s");
    assertEquals(4, pack.numBlocks());
    for (int b = 0; b < pack.numBlocks(); b++) {
      Swarm swarm = pack.swarm(b);
      swarm.addEmptyParticles(3 + b);
      for (int i = 0; i < swarm.newCount(); i++) {
        int n = swarm.newSlot(i);
        pack.integer("id").set(b, n, 100 * b + i);
        pack.real("v").set(b, 1, n, b + 0.5 * i);
      }
      swarm.remove(1);
    }
    SwarmReal x = pack.x();
    SwarmReal v = pack.real("v");
    SwarmInt id = pack.integer("id");
    ParFor.particles(pack, (b, n) -> x.add(b, n, v.get(b, 1, n) * 2.0 + id.get(b, n)));
    int visited = 0;
    for (int b = 0; b < pack.numBlocks(); b++) {
      for (int n = 0; n <= pack.maxActiveIndex(b); n++) {
        if (pack.isActive(b, n)) {
          visited++;
          int i = id.get(b, n) - 100 * b;
          assertEquals(2.0 * (b + 0.5 * i) + id.get(b, n), x.get(b, n), "b=" + b + " n=" + n);
        } else {
          assertEquals(1, n);
          assertEquals(0.0, x.get(b, n));
        }
      }
    }
    assertEquals(3 + 4 + 5 + 6 - 4, visited);
    assertEquals(visited, mesh.swarms().numParticles());
    assertSame(pack, SwarmPack.of(md, "s"));
    assertSame(v, pack.real("v"));
  }

  @Test
  void givenAPoolThatGrows_thenAViewMadeBeforeSeesTheNewArrays() {
    MeshData md = mesh().meshData("base").get(0);
    SwarmPack pack = SwarmPack.of(md, "s");
    SwarmReal y = pack.y();
    pack.swarm(0).addEmptyParticles(1);
    y.set(0, 0, 3.0);
    pack.swarm(0).addEmptyParticles(4 * Swarm.INITIAL_CAPACITY);
    int last = pack.swarm(0).newSlot(pack.swarm(0).newCount() - 1);
    y.set(0, last, 4.0);
    assertEquals(3.0, pack.swarm(0).real(1)[0]);
    assertEquals(4.0, pack.swarm(0).real(1)[last]);
  }

  @Test
  void givenWrongNamesOrTypes_thenTheyAreRefused() {
    MeshData md = mesh().meshData("base").get(0);
    assertThrows(IllegalArgumentException.class, () -> SwarmPack.of(md, "t"));
    SwarmPack pack = SwarmPack.of(md, "s");
    assertThrows(IllegalArgumentException.class, () -> pack.real("id"));
    assertThrows(IllegalArgumentException.class, () -> pack.integer("v"));
    assertThrows(IllegalArgumentException.class, () -> pack.real("w"));
  }
}
