package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One pool per group and length, slices from the arena, totals. */
class BufferPoolsTest {
  private static final BufferGroup SEND_TO_1 =
      new BufferGroup(1, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);
  private static final BufferGroup SEND_TO_2 =
      new BufferGroup(2, 0, ChannelKind.BOUNDARY_VALUES, ChannelRole.SENDER);

  @Test
  void givenSameGroupAndLength_thenTheSamePool_otherwiseAnother() {
    BufferPools pools = new BufferPools(new BufferArena());
    ObjectPool<BufferSlice> a = pools.pool(SEND_TO_1, 8);
    assertSame(a, pools.pool(SEND_TO_1, 8));
    assertNotSame(a, pools.pool(SEND_TO_1, 9));
    assertNotSame(a, pools.pool(SEND_TO_2, 8));
    assertEquals(3, pools.poolCount());
  }

  @Test
  void givenLeases_thenSlicesHaveThePoolLengthLieInTheGroupAndAreRecycled() {
    BufferArena arena = new BufferArena();
    BufferPools pools = new BufferPools(arena);
    ObjectPool<BufferSlice> pool = pools.pool(SEND_TO_2, 6);
    ObjectPool.Owner<BufferSlice> a = pool.get();
    ObjectPool.Owner<BufferSlice> b = pool.get();
    int start = arena.groupStart(SEND_TO_2);
    for (ObjectPool.Owner<BufferSlice> o : java.util.List.of(a, b)) {
      BufferSlice s = o.get();
      assertEquals(6, s.length());
      assertEquals(SEND_TO_2, s.group());
      assertTrue(s.offset() >= start && s.offset() + 6 <= start + arena.groupUsed(SEND_TO_2));
    }
    BufferSlice first = a.get();
    a.release();
    assertSame(first, pool.get().get());
    assertEquals(2, pools.created());
    assertEquals(2, pools.inUse());
    assertEquals(0, pools.free());
    assertEquals(1, pools.reuses());
    assertEquals(2, arena.sliceCount(), "recycling creates no slice");
  }

  @Test
  void givenPools_thenDescribeListsTheArenaAndEachPool() {
    BufferPools pools = new BufferPools(new BufferArena());
    pools.pool(SEND_TO_1, 4).get();
    String text = pools.describe();
    assertTrue(text.startsWith("arena length="), text);
    assertTrue(text.contains("\npool group=" + SEND_TO_1 + " length=4 created=1 inUse=1 free=0"
        + " reuses=0"), text);
  }

  @Test
  void givenBadArguments_thenRejected() {
    assertThrows(IllegalArgumentException.class, () -> new BufferPools(null));
    BufferPools pools = new BufferPools(new BufferArena());
    assertThrows(IllegalArgumentException.class, () -> pools.pool(SEND_TO_1, 0));
    assertThrows(IllegalArgumentException.class, () -> pools.pool(null, 3));
  }
}
