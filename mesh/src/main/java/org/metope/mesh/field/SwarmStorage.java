package org.metope.mesh.field;

import java.util.List;

/**
 * Every swarm of this rank's blocks (Parthenon's {@code SwarmContainer}, one per block): block
 * {@code lid}'s swarm {@code s} is {@code swarm(lid, s)}, swarms in the order of {@link
 * #layouts()}. Made empty with the field storage and at the same times.
 */
public final class SwarmStorage {
  private final List<SwarmLayout> layouts;
  private final Swarm[][] swarms;

  /** Empty swarms of {@code layouts} for {@code numBlocks} blocks. */
  public SwarmStorage(List<SwarmLayout> layouts, int numBlocks) {
    this.layouts = List.copyOf(layouts);
    this.swarms = new Swarm[numBlocks][layouts.size()];
    for (int b = 0; b < numBlocks; b++) {
      for (int s = 0; s < layouts.size(); s++) {
        swarms[b][s] = new Swarm(layouts.get(s));
      }
    }
  }

  /** Every swarm's layout, in the packages' order. */
  public List<SwarmLayout> layouts() {
    return layouts;
  }

  /** The position of swarm {@code name} in {@link #layouts()}. */
  public int index(String name) {
    for (int s = 0; s < layouts.size(); s++) {
      if (layouts.get(s).name().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no swarm=" + name + " (swarms="
        + layouts.stream().map(SwarmLayout::name).toList() + ")");
  }

  /** The number of blocks. */
  public int numBlocks() {
    return swarms.length;
  }

  /** Block {@code lid}'s swarm number {@code s}. */
  public Swarm swarm(int lid, int s) {
    return swarms[lid][s];
  }

  /** Block {@code lid}'s swarm {@code name}. */
  public Swarm swarm(int lid, String name) {
    return swarms[lid][index(name)];
  }

  /** Particles of every swarm of every block of this rank. */
  public long numParticles() {
    long n = 0;
    for (Swarm[] block : swarms) {
      for (Swarm swarm : block) {
        n += swarm.numActive();
      }
    }
    return n;
  }
}
