package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;

/** One communicator per field and kind, matched across ranks, with separate tag spaces. */
class FieldCommunicatorsTest {
  @Test
  void givenTwoRanks_thenEachFieldAndKindHasItsOwnTagSpaceMatchedAcrossRanks() {
    InProcessRun.run(2, world -> {
      FieldCommunicators comms =
          FieldCommunicators.create(world, new int[] {0, 2}, new int[] {2});
      assertEquals(3, comms.count());
      Communicator field0 = comms.communicator(ChannelKind.BOUNDARY_VALUES, 0);
      Communicator field2 = comms.communicator(ChannelKind.BOUNDARY_VALUES, 2);
      Communicator flux2 = comms.communicator(ChannelKind.FLUX_CORRECTION, 2);
      assertNotSame(field0, field2);
      if (world.rank() == 0) {
        field2.isend(new double[] {2.0, 2.5}, 0, 2, 1, 5);
        flux2.isend(new double[] {7.0}, 0, 1, 1, 5);
      }
      world.barrier();
      if (world.rank() == 1) {
        assertEquals(-1, field0.iprobe(0, 5), "field 0 does not see field 2's message");
        assertEquals(-1, world.iprobe(0, 5), "nor does the world");
        assertEquals(2, field2.iprobe(0, 5));
        assertEquals(1, flux2.iprobe(0, 5), "flux corrections have their own communicator");
        double[] in = new double[2];
        field2.irecv(in, 0, 2, 0, 5).waitFor();
        assertEquals(2.5, in[1]);
      }
    });
  }

  @Test
  void givenFieldWithoutCommunicator_thenMisuseNamesFieldAndKind() {
    FieldCommunicators comms =
        FieldCommunicators.create(InProcessCluster.singleRank(), new int[] {1}, new int[0]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> comms.communicator(ChannelKind.FLUX_CORRECTION, 1));
    assertEquals("no communicator for this field: fieldId=1, kind=FLUX_CORRECTION",
        e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> comms.communicator(ChannelKind.BOUNDARY_VALUES, 0));
  }

  @Test
  void givenIdsNotStrictlyAscending_thenRejected() {
    Communicator world = InProcessCluster.singleRank();
    assertThrows(IllegalArgumentException.class,
        () -> FieldCommunicators.create(world, new int[] {2, 1}, new int[0]));
    assertThrows(IllegalArgumentException.class,
        () -> FieldCommunicators.create(world, new int[] {1, 1}, new int[0]));
    assertThrows(IllegalArgumentException.class,
        () -> FieldCommunicators.create(world, new int[0], new int[] {-1}));
  }
}
