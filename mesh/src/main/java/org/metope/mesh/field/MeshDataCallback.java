package org.metope.mesh.field;

/**
 * Work a package does on one partition of blocks in one stage container: fill derived fields
 * (and the pre-/post-/pre-communication variants), initialise newly allocated sparse fields.
 */
@FunctionalInterface
public interface MeshDataCallback {
  /** Does the work on every block of {@code md}. */
  void apply(MeshData md);
}
