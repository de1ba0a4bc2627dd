package org.metope.bvals.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Leases, recycling, keys and statistics of {@link ObjectPool}. */
class ObjectPoolTest {
  private final AtomicInteger made = new AtomicInteger();
  private final ObjectPool<int[]> pool = new ObjectPool<>(() -> {
    made.incrementAndGet();
    return new int[4];
  });

  @Test
  void givenEmptyPool_whenGet_thenTheFactoryMakesAnObjectWithOneOwner() {
    ObjectPool.Owner<int[]> o = pool.get();
    assertEquals(1, made.get());
    assertEquals(1, o.referenceCount());
    assertTrue(o.isValid());
    assertNotEquals(0, o.key());
    assertEquals(1, pool.created());
    assertEquals(1, pool.inUse());
    assertEquals(0, pool.free());
    assertEquals(0, pool.reuses());
  }

  @Test
  void givenReleasedObject_whenGet_thenItIsReusedUnderANewKeyWithoutCallingTheFactory() {
    ObjectPool.Owner<int[]> first = pool.get();
    int[] object = first.get();
    long firstKey = first.key();
    first.release();
    ObjectPool.Owner<int[]> second = pool.get();
    assertSame(object, second.get());
    assertNotEquals(firstKey, second.key());
    assertEquals(1, made.get());
    assertEquals(1, pool.reuses());
  }

  @Test
  void givenManyLeases_thenKeysAreUniqueAndNeverZero() {
    Set<Long> keys = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      ObjectPool.Owner<int[]> o = pool.get();
      assertTrue(keys.add(o.key()));
      if (i % 3 != 0) {
        o.release();
      }
    }
    assertFalse(keys.contains(0L));
    assertEquals(34, pool.inUse());
    assertEquals(pool.created(), pool.inUse() + pool.free());
  }

  @Test
  void givenReleasedOwner_whenUsedAgain_thenMisuse() {
    ObjectPool.Owner<int[]> o = pool.get();
    o.release();
    assertThrows(IllegalStateException.class, o::release);
    assertThrows(IllegalStateException.class, o::get);
    assertEquals(1, pool.free(), "a double release does not push the object twice");
  }

  @Test
  void givenEnsureCapacity_thenObjectsArePremadeAndLaterLeasesCreateNothing() {
    ObjectPool.Owner<int[]> held = pool.get();
    pool.ensureCapacity(3);
    assertEquals(3, pool.created());
    assertEquals(2, pool.free());
    pool.ensureCapacity(2);
    assertEquals(3, pool.created(), "capacity counts objects in use too");
    pool.get();
    pool.get();
    assertEquals(3, made.get());
    assertEquals(2, pool.reuses());
    held.release();
  }

  @Test
  void givenFactoryReturningNull_thenGetFails() {
    ObjectPool<Object> broken = new ObjectPool<>(() -> null);
    assertThrows(IllegalStateException.class, broken::get);
  }
}
