package org.metope.mesh.view;

import java.util.HashMap;
import java.util.Map;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmStorage;

/**
 * One swarm on every block of a partition (Parthenon's {@code SwarmPack}): the blocks' {@link
 * Swarm}s by partition block {@code b}, and views of its variables indexed {@code (b, n)} or
 * {@code (b, component, n)} by slot {@code n}, for {@link ParFor#particles} loops. The views read
 * each block's current arrays, so they stay valid when a pool grows; package code never sees a
 * component number or an array.
 *
 * <pre>{@code
 * SwarmPack pack = SwarmPack.of(md, "my_particles");
 * SwarmReal x = pack.x();
 * SwarmReal v = pack.real("v");
 * ParFor.particles(pack, (b, n) -> x.add(b, n, v.get(b, 0, n) * dt));
 * }</pre>
 */
public final class SwarmPack {
  private final Swarm[] swarms;
  private final SwarmLayout layout;
  private final Map<String, SwarmReal> reals = new HashMap<>();
  private final Map<String, SwarmInt> integers = new HashMap<>();

  private SwarmPack(Swarm[] swarms, SwarmLayout layout) {
    this.swarms = swarms;
    this.layout = layout;
  }

  /**
   * Swarm {@code name} on the blocks of {@code md}: made on the first call and kept by the
   * partition (keyed by the swarm's layout, which lives as long as the storage), so that a call
   * per step allocates nothing.
   *
   * @throws IllegalArgumentException when no package declares the swarm
   */
  public static SwarmPack of(MeshData md, String name) {
    if (md.numBlocks() == 0) {
      return new SwarmPack(new Swarm[0], null);
    }
    SwarmStorage storage = md.block(0).mesh().swarms();
    int s = storage.index(name);
    SwarmLayout layout = storage.layouts().get(s);
    if (md.keptView(layout) instanceof SwarmPack kept) {
      return kept;
    }
    Swarm[] swarms = new Swarm[md.numBlocks()];
    for (int b = 0; b < swarms.length; b++) {
      swarms[b] = storage.swarm(md.blockIndex(b), s);
    }
    SwarmPack pack = new SwarmPack(swarms, layout);
    md.keepView(layout, pack);
    return pack;
  }

  /** Blocks in the pack. */
  public int numBlocks() {
    return swarms.length;
  }

  /** Partition block {@code b}'s swarm, to add or remove particles. */
  public Swarm swarm(int b) {
    return swarms[b];
  }

  /** The highest occupied slot of block {@code b}, -1 when it has no particle. */
  public int maxActiveIndex(int b) {
    return swarms[b].maxActiveIndex();
  }

  /** Whether slot {@code n} of block {@code b} holds a particle. */
  public boolean isActive(int b, int n) {
    return swarms[b].isActive(n);
  }

  /** The position along x1, {@code swarm.x}. */
  public SwarmReal x() {
    return real(SwarmLayout.POSITIONS.get(0));
  }

  /** The position along x2, {@code swarm.y}. */
  public SwarmReal y() {
    return real(SwarmLayout.POSITIONS.get(1));
  }

  /** The position along x3, {@code swarm.z}. */
  public SwarmReal z() {
    return real(SwarmLayout.POSITIONS.get(2));
  }

  /** Real variable {@code name} (made on first use, then reused). */
  public SwarmReal real(String name) {
    SwarmReal view = reals.get(name);
    if (view == null) {
      view = new SwarmReal(swarms, requireLayout().variable(name));
      reals.put(name, view);
    }
    return view;
  }

  /** Integer variable {@code name} (made on first use, then reused). */
  public SwarmInt integer(String name) {
    SwarmInt view = integers.get(name);
    if (view == null) {
      view = new SwarmInt(swarms, requireLayout().variable(name));
      integers.put(name, view);
    }
    return view;
  }

  private SwarmLayout requireLayout() {
    if (layout == null) {
      throw new IllegalStateException("a pack of an empty partition has no variables");
    }
    return layout;
  }
}
