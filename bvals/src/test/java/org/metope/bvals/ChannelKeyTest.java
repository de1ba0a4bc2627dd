package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.metope.mesh.forest.NeighborIndex;

/** Ordering and validation of {@link ChannelKey}. */
class ChannelKeyTest {
  @Test
  void givenRandomKeys_thenNaturalOrderIsLexicographicInSenderReceiverFieldElement() {
    Random random = new Random(17);
    List<ChannelKey> keys = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      keys.add(new ChannelKey(random.nextInt(4), random.nextInt(4), random.nextInt(3),
          random.nextInt(27)));
    }
    List<ChannelKey> natural = new ArrayList<>(keys);
    Collections.sort(natural);
    List<ChannelKey> reference = new ArrayList<>(keys);
    reference.sort(Comparator.comparingInt(ChannelKey::senderGid)
        .thenComparingInt(ChannelKey::receiverGid).thenComparingInt(ChannelKey::fieldId)
        .thenComparingInt(ChannelKey::element));
    assertEquals(reference, natural);
  }

  @Test
  void givenNeighborIndex_thenElementIsItsDenseIndex() {
    ChannelKey k = ChannelKey.of(1, 2, 0, NeighborIndex.of(1, 0, -1));
    assertEquals(2 + 3 + 0, k.element());
    assertEquals(NeighborIndex.of(1, 0, -1), k.senderElement());
  }

  @Test
  void givenOutOfRangeValues_thenRejected() {
    assertThrows(IllegalArgumentException.class, () -> new ChannelKey(-1, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new ChannelKey(0, -1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new ChannelKey(0, 0, -1, 0));
    assertThrows(IllegalArgumentException.class, () -> new ChannelKey(0, 0, 0, 27));
    assertThrows(IllegalArgumentException.class, () -> new ChannelKey(0, 0, 0, -1));
  }
}
