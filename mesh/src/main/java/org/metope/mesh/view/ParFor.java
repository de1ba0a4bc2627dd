package org.metope.mesh.view;

import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.geometry.IndexDomain;

/**
 * Loops over the cells of a partition's blocks (Parthenon's {@code par_for} with {@code
 * DEFAULT_LOOP_PATTERN}): {@code ParFor.cells(md, box, (b, k, j, i) -> ...)} calls the kernel on
 * every cell of {@code box} of every block, {@code b} slowest and {@code i} fastest, in that
 * fixed order on one thread (a partition is the unit of threading; results do not depend on it).
 *
 * <p>{@link #flat} is the same loop for kernels whose every access is a shift of one cell
 * number, such as a face flux from its two cells: {@code ParFor.flat(md, q.flatRange(faces), (b,
 * c) -> ...)} runs one loop per block and k plane over a {@link FlatRange}, which also covers the
 * cells between the box's rows. That is what a hand-written kernel on the flat arena does, with
 * loops of hundreds of iterations instead of rows of 16 or 32 (docs/PERFORMANCE.md, "Views", has
 * what it gains on the advection flux kernel).
 *
 * <p>Each kernel class gets its own copy of the loop ({@link LoopCopies}), so the JIT inlines the
 * kernel into it and compiles the pair like a hand-written loop; the copy is made on the first
 * call with that class and reused after. A call allocates nothing but what the caller's lambda
 * captures.
 */
public final class ParFor {
  private static final ClassValue<CellLoop> LOOPS = new ClassValue<>() {
    @Override
    protected CellLoop computeValue(Class<?> kernelClass) {
      return LoopCopies.of(CellLoopTemplate.class, CellLoop.class);
    }
  };
  private static final ClassValue<FlatLoop> FLAT_LOOPS = new ClassValue<>() {
    @Override
    protected FlatLoop computeValue(Class<?> kernelClass) {
      return LoopCopies.of(FlatLoopTemplate.class, FlatLoop.class);
    }
  };

  private ParFor() {}

  /** Calls {@code kernel} on every cell of {@code box} of partition blocks {@code bs..be}. */
  public static void cells(int bs, int be, IndexBox box, CellKernel kernel) {
    loopFor(kernel.getClass()).run(bs, be, box.k().s(), box.k().e(), box.j().s(),
        box.j().e(), box.i().s(), box.i().e(), kernel);
  }

  /** The loop copy of {@code kernelClass}, made on first use. */
  static CellLoop loopFor(Class<?> kernelClass) {
    return LOOPS.get(kernelClass);
  }

  /** Calls {@code kernel} on every cell of {@code box} of every block of {@code md}. */
  public static void cells(MeshData md, IndexBox box, CellKernel kernel) {
    cells(0, md.numBlocks() - 1, box, kernel);
  }

  /**
   * Calls {@code kernel} on every cell of {@code domain} of every block of {@code md} (the blocks
   * of a mesh share one index shape); nothing for an empty partition.
   */
  public static void cells(MeshData md, IndexDomain domain, CellKernel kernel) {
    if (md.numBlocks() > 0) {
      cells(md, IndexBox.of(md.block(0).cellBounds(), domain), kernel);
    }
  }

  /** Calls {@code kernel} on every cell number of {@code range} of blocks {@code bs..be}. */
  public static void flat(int bs, int be, FlatRange range, FlatKernel kernel) {
    flatLoopFor(kernel.getClass()).run(bs, be, range, kernel);
  }

  /** Calls {@code kernel} on every cell number of {@code range} of every block of {@code md}. */
  public static void flat(MeshData md, FlatRange range, FlatKernel kernel) {
    flat(0, md.numBlocks() - 1, range, kernel);
  }

  /**
   * Calls {@code kernel} on every particle of {@code pack}: blocks in order, then slots upwards,
   * skipping free slots (Parthenon's loop to {@code GetMaxActiveIndex} with {@code IsActive}).
   * The kernel may remove the particle it is given; add particles after the loop (one added into
   * a free slot below the highest would be visited).
   */
  public static void particles(SwarmPack pack, ParticleKernel kernel) {
    for (int b = 0; b < pack.numBlocks(); b++) {
      Swarm swarm = pack.swarm(b);
      int last = swarm.maxActiveIndex();
      for (int n = 0; n <= last; n++) {
        if (swarm.isActive(n)) {
          kernel.apply(b, n);
        }
      }
    }
  }

  /** The flat loop copy of {@code kernelClass}, made on first use. */
  static FlatLoop flatLoopFor(Class<?> kernelClass) {
    return FLAT_LOOPS.get(kernelClass);
  }
}
