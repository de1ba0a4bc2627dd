package org.metope.mesh.field;

/**
 * One field of the run after package resolution (Parthenon's {@code VarID} with its metadata).
 *
 * @param id the field's position in {@link ResolvedState#fields()}: the field index used by
 *     storage tables, channel keys and outputs
 * @param name the full name: {@code base}, {@code base_id} for a sparse field, {@code
 *     package::base} for a private field
 * @param baseName the name without the sparse id
 * @param sparseId the sparse id, or {@link #NO_SPARSE_ID} for a dense field
 * @param metadata the field's metadata
 * @param packageName the package whose declaration was used
 */
public record FieldInfo(
    int id, String name, String baseName, int sparseId, Metadata metadata, String packageName) {

  /** The sparse id of dense fields (Parthenon's {@code InvalidSparseID}). */
  public static final int NO_SPARSE_ID = Integer.MIN_VALUE;

  /** Whether this is one id of a sparse pool. */
  public boolean isSparse() {
    return sparseId != NO_SPARSE_ID;
  }

  /** The number of components (product of the metadata shape). */
  public int numComponents() {
    return metadata.numComponents();
  }
}
