package org.metope.mesh.field;

/**
 * Work a package does on one block (Parthenon's callbacks on {@code MeshBlockData}, e.g. {@code
 * FillDerivedBlock}): block {@code b} of partition {@code md}, in {@code md}'s stage container.
 *
 * <p>The framework's partition-level dispatcher ({@link Packages#fillDerived} and friends) calls it
 * once per block of the partition, so a package writes per-block code and never loops over blocks
 * itself. It must touch only block {@code b}.
 */
@FunctionalInterface
public interface BlockCallback {
  /** Does the work on partition block {@code b} of {@code md}. */
  void apply(MeshData md, int b);
}
