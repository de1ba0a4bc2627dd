package org.metope.bvals.channel;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The order in which a cache posts its sends and receives (Parthenon's choice in {@code
 * InitializeBufferCache}): the cache's own boundary order, or a random permutation. Random is
 * reproducible: it comes from the deck's seed and a per-cache salt, so a run posts in the same
 * order every time, on any number of threads.
 *
 * @param mode cache order or random
 * @param seed the seed of random orders (ignored for cache order)
 */
public record PostingOrder(Mode mode, long seed) {
  /** How channels are ordered. */
  public enum Mode {
    /** The order in which the cache lists its boundaries. */
    CACHE,
    /** A seeded random permutation per cache. */
    RANDOM
  }

  /** {@code 0, 1, 2, ...}, shared by every cache and never written ({@link #identity(int)}). */
  private static volatile int[] identity = new int[0];

  /** Checks for null. */
  public PostingOrder {
    if (mode == null) {
      throw new IllegalArgumentException("mode is null: seed=" + seed);
    }
  }

  /** The cache's own order. */
  public static PostingOrder cacheOrder() {
    return new PostingOrder(Mode.CACHE, 0);
  }

  /** Random permutations from {@code seed}. */
  public static PostingOrder random(long seed) {
    return new PostingOrder(Mode.RANDOM, seed);
  }

  /**
   * The order named {@code name}: {@code cache} or {@code random} (case-insensitive).
   *
   * @throws IllegalArgumentException for another name; the message lists the accepted ones
   */
  public static PostingOrder parse(String name, long seed) {
    String n = name == null ? "" : name.trim();
    if (n.equalsIgnoreCase("cache")) {
      return cacheOrder();
    }
    if (n.equalsIgnoreCase("random")) {
      return random(seed);
    }
    throw new IllegalArgumentException("unknown posting order '" + name
        + "', expected cache or random");
  }

  /**
   * The posting position of each cache index: element {@code p} is the cache index posted
   * {@code p}-th. Identity for cache order; for random, a Fisher-Yates shuffle seeded by {@link
   * #seed()} and {@code salt} (use the cache's partition and kind so caches differ).
   */
  public int[] permutation(int count, long salt) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be non-negative: count=" + count);
    }
    int[] order = Arrays.copyOf(identity(count), count);
    if (mode == Mode.RANDOM) {
      SplittableRandom random = new SplittableRandom(seed ^ (salt * 0x9E3779B97F4A7C15L));
      for (int i = count - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    return order;
  }

  /**
   * The shared identity of at least {@code count} entries, longer when needed: a permutation then
   * starts as one array copy instead of a loop that a plan built a few times per remesh would run
   * in the interpreter.
   */
  private static int[] identity(int count) {
    int[] known = identity;
    if (known.length >= count) {
      return known;
    }
    int[] longer = new int[Math.max(count, 2 * known.length)];
    for (int i = 0; i < longer.length; i++) {
      longer[i] = i;
    }
    identity = longer;
    return longer;
  }
}
