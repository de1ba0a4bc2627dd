package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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

  /** The same components in records whose equals and hashCode the JDK generates. */
  private record GeneratedKey(int senderGid, int receiverGid, int fieldId, int element) {}

  private record GeneratedGroup(int peerRank, int partition, ChannelKind kind, ChannelRole role) {}

  @Test
  void givenRandomKeysAndGroups_thenHashCodeIsTheGeneratedRecordsAndEqualsComparesEveryComponent() {
    Random random = new Random(23);
    for (int i = 0; i < 20_000; i++) {
      int[] v = {random.nextInt(Integer.MAX_VALUE), random.nextInt(Integer.MAX_VALUE),
          random.nextInt(Integer.MAX_VALUE), random.nextInt(27)};
      ChannelKey key = new ChannelKey(v[0], v[1], v[2], v[3]);
      assertEquals(new GeneratedKey(v[0], v[1], v[2], v[3]).hashCode(), key.hashCode());
      assertEquals(key, new ChannelKey(v[0], v[1], v[2], v[3]));
      assertNotEquals(key, new ChannelKey(v[0] + 1, v[1], v[2], v[3]));
      assertNotEquals(key, new ChannelKey(v[0], v[1] + 1, v[2], v[3]));
      assertNotEquals(key, new ChannelKey(v[0], v[1], v[2] + 1, v[3]));
      assertNotEquals(key, new ChannelKey(v[0], v[1], v[2], (v[3] + 1) % 27));

      ChannelKind kind = ChannelKind.values()[random.nextInt(ChannelKind.values().length)];
      ChannelRole role = ChannelRole.values()[random.nextInt(ChannelRole.values().length)];
      BufferGroup group = new BufferGroup(v[0], v[1], kind, role);
      assertEquals(new GeneratedGroup(v[0], v[1], kind, role).hashCode(), group.hashCode());
      assertEquals(group, new BufferGroup(v[0], v[1], kind, role));
      assertNotEquals(group, new BufferGroup(v[0] + 1, v[1], kind, role));
      assertNotEquals(group, new BufferGroup(v[0], v[1] + 1, kind, role));
      ChannelKind otherKind = ChannelKind.values()[(kind.ordinal() + 1)
          % ChannelKind.values().length];
      ChannelRole otherRole = ChannelRole.values()[(role.ordinal() + 1)
          % ChannelRole.values().length];
      assertNotEquals(group, new BufferGroup(v[0], v[1], otherKind, role));
      assertNotEquals(group, new BufferGroup(v[0], v[1], kind, otherRole));
    }
  }
}
