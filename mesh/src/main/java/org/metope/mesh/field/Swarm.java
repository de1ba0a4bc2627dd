package org.metope.mesh.field;

import java.util.Arrays;

/**
 * One swarm's particles in one block (Parthenon's {@code Swarm}): a pool of slots, one flat array
 * per component as drawn in {@link SwarmLayout}, and the free-slot mask {@code active}.
 *
 * <p>Slots are handed out lowest free first, in increasing order, and the pool doubles when it is
 * full; a removed particle's slot is free at once. The slots a sequence of adds and removes uses
 * therefore depend on that sequence only, never on the rank or thread that runs it, which keeps
 * runs bit-identical. {@link #defrag} moves the highest particles into the lowest holes so that
 * the active particles fill slots {@code 0..numActive-1}.
 *
 * <p>The arrays are replaced when the pool grows: read them through {@link #real(int)} and
 * {@link #integer(int)} after adding (views in {@code mesh.view} do). A new particle's values
 * start at zero. Not thread-safe: a block's swarm belongs to one task at a time.
 */
public final class Swarm {
  /** Slots of a new pool. */
  public static final int INITIAL_CAPACITY = 8;

  private final SwarmLayout layout;
  private double[][] reals;
  private int[][] integers;
  private boolean[] active;
  private boolean[] marked;
  private int numActive;
  private int maxActiveIndex = -1;
  /** No free slot lies below this one. */
  private int lowestFree;
  /** The slots of the last {@link #addEmptyParticles}, ascending. */
  private int[] newSlots = new int[INITIAL_CAPACITY];
  private int newCount;

  /** An empty swarm laid out by {@code layout}. */
  public Swarm(SwarmLayout layout) {
    this.layout = layout;
    this.reals = new double[layout.realComponents()][INITIAL_CAPACITY];
    this.integers = new int[layout.integerComponents()][INITIAL_CAPACITY];
    this.active = new boolean[INITIAL_CAPACITY];
    this.marked = new boolean[INITIAL_CAPACITY];
  }

  /** The layout. */
  public SwarmLayout layout() {
    return layout;
  }

  /** Slots in the pool. */
  public int capacity() {
    return active.length;
  }

  /** Particles in the pool. */
  public int numActive() {
    return numActive;
  }

  /** The highest occupied slot, -1 when there is none (Parthenon's {@code GetMaxActiveIndex}). */
  public int maxActiveIndex() {
    return maxActiveIndex;
  }

  /** Whether slot {@code n} holds a particle. */
  public boolean isActive(int n) {
    return active[n];
  }

  /** The array of real component {@code c} ({@link SwarmLayout}); replaced when the pool grows. */
  public double[] real(int c) {
    return reals[c];
  }

  /** The array of integer component {@code c}; replaced when the pool grows. */
  public int[] integer(int c) {
    return integers[c];
  }

  /** The free-slot mask; replaced when the pool grows. */
  public boolean[] activeMask() {
    return active;
  }

  /**
   * Makes {@code count} new particles with every value zero in the lowest free slots (Parthenon's
   * {@code AddEmptyParticles}), growing the pool as needed; {@link #newSlot} gives their slots,
   * ascending, until the next call.
   */
  public void addEmptyParticles(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("swarm=" + layout.name() + " count=" + count
          + " must not be negative");
    }
    while (capacity() - numActive < count) {
      grow();
    }
    if (newSlots.length < count) {
      newSlots = new int[Math.max(count, 2 * newSlots.length)];
    }
    int slot = lowestFree;
    for (int added = 0; added < count; added++) {
      while (active[slot]) {
        slot++;
      }
      occupy(slot);
      newSlots[added] = slot;
    }
    newCount = count;
    lowestFree = slot;
  }

  /** The slot of the {@code i}th particle made by the last {@link #addEmptyParticles}. */
  public int newSlot(int i) {
    if (i < 0 || i >= newCount) {
      throw new IndexOutOfBoundsException("new particle=" + i + " of " + newCount);
    }
    return newSlots[i];
  }

  /** How many particles the last {@link #addEmptyParticles} made. */
  public int newCount() {
    return newCount;
  }

  /** Removes the particle in slot {@code n}: its slot is free at once. */
  public void remove(int n) {
    if (!active[n]) {
      throw new IllegalStateException("swarm=" + layout.name() + " slot=" + n + " is free");
    }
    active[n] = false;
    marked[n] = false;
    numActive--;
    lowestFree = Math.min(lowestFree, n);
    while (maxActiveIndex >= 0 && !active[maxActiveIndex]) {
      maxActiveIndex--;
    }
  }

  /**
   * Marks the particle in slot {@code n} for {@link #removeMarkedParticles} (Parthenon's {@code
   * MarkParticleForRemoval}), so that a loop over the particles can remove some without changing
   * the slots it has still to visit.
   */
  public void markForRemoval(int n) {
    if (!active[n]) {
      throw new IllegalStateException("swarm=" + layout.name() + " slot=" + n + " is free");
    }
    marked[n] = true;
  }

  /** Removes every marked particle (Parthenon's {@code RemoveMarkedParticles}). */
  public void removeMarkedParticles() {
    for (int n = 0; n <= maxActiveIndex; n++) {
      if (marked[n]) {
        remove(n);
      }
    }
  }

  /** Active particles per slot up to the highest one; 1 when empty (Parthenon's occupancy). */
  public double packingEfficiency() {
    return maxActiveIndex < 0 ? 1.0 : (double) numActive / (maxActiveIndex + 1);
  }

  /**
   * Moves particles so that they occupy slots {@code 0..numActive-1} (Parthenon's {@code Defrag}):
   * the highest particle fills the lowest hole, repeatedly. Which particle goes where depends on
   * the slots only.
   */
  public void defrag() {
    int hole = 0;
    int top = maxActiveIndex;
    while (true) {
      while (hole < top && active[hole]) {
        hole++;
      }
      while (top > hole && !active[top]) {
        top--;
      }
      if (hole >= top) {
        break;
      }
      move(top, hole);
    }
    maxActiveIndex = numActive - 1;
    lowestFree = numActive;
  }

  private void move(int from, int to) {
    for (double[] component : reals) {
      component[to] = component[from];
    }
    for (int[] component : integers) {
      component[to] = component[from];
    }
    active[to] = true;
    marked[to] = marked[from];
    active[from] = false;
    marked[from] = false;
  }

  private void occupy(int slot) {
    for (double[] component : reals) {
      component[slot] = 0.0;
    }
    for (int[] component : integers) {
      component[slot] = 0;
    }
    active[slot] = true;
    marked[slot] = false;
    numActive++;
    maxActiveIndex = Math.max(maxActiveIndex, slot);
  }

  private void grow() {
    int capacity = 2 * capacity();
    for (int c = 0; c < reals.length; c++) {
      reals[c] = Arrays.copyOf(reals[c], capacity);
    }
    for (int c = 0; c < integers.length; c++) {
      integers[c] = Arrays.copyOf(integers[c], capacity);
    }
    active = Arrays.copyOf(active, capacity);
    marked = Arrays.copyOf(marked, capacity);
  }

  @Override
  public String toString() {
    return "Swarm[" + layout.name() + " active=" + numActive + " capacity=" + capacity() + "]";
  }
}
