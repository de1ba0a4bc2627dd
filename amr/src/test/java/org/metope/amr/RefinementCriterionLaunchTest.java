package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.body.TagLaunch;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;

/**
 * GIVEN a built-in criterion (both derivative orders, magnitude both ways) on a field with
 * structure, THEN its launch measured on the poisoned resident emulation gives every block the
 * tag {@link RefinementCriterion#check} gives on the host, an unallocated sparse field included;
 * with the measures left on the device the tags differ.
 */
class RefinementCriterionLaunchTest {
  private final Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 3, "")),
      AmrFixtures.toy(null), InProcessCluster.singleRank());
  private final MeshData md = mesh.meshData("base").get(0);
  private final int q = mesh.resolvedPackages().fieldId("q");

  private RefinementCriterion[] criteria(int field) {
    var cells = mesh.blocks().get(0).cellBounds();
    RefinementCriterion.Settings s = new RefinementCriterion.Settings(field, 0, 0.6, 0.3, 3);
    return new RefinementCriterion[] {new DerivativeCriterion(s, cells, 1),
        new DerivativeCriterion(s, cells, 2), new MagnitudeCriterion(s, cells, true),
        new MagnitudeCriterion(s, cells, false)};
  }

  /** How many (criterion, block) tags from the device differ from the host's. */
  private int wrongTags(Fault fault, int field) {
    int wrong = 0;
    try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(fault,
        new DeviceTrace(null), true)) {
      for (RefinementCriterion c : criteria(field)) {
        TagLaunch launch = c.launch(md);
        device.measure(launch, md.data());
        device.acquireHost(md.data(), false);
        try {
          for (int b = 0; b < md.numBlocks(); b++) {
            wrong += c.tag(launch, md, b) == c.check(md, b) ? 0 : 1;
          }
        } finally {
          device.releaseHost(md.data());
        }
      }
    }
    return wrong;
  }

  @Test
  void givenEachBuiltInCriterion_whenMeasuredOnTheDevice_thenTheHostTags() {
    AmrFixtures.fillLinear(mesh, "q", 0.0, 1.0, 0.5, 0.0);
    assertEquals(0, wrongTags(Fault.NONE, q));
    int s = mesh.resolvedPackages().fieldId("s_1");
    assertEquals(0, wrongTags(Fault.NONE, s));
  }

  @Test
  void givenTheMeasuresLeftOnTheDevice_thenSomeTagsDiffer() {
    AmrFixtures.fillLinear(mesh, "q", 0.0, 1.0, 0.5, 0.0);
    assertNotEquals(0, wrongTags(Fault.NO_TAGS_BACK, q));
  }
}
