package org.metope.mesh.field;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A family of sparse fields sharing a base name and metadata (Parthenon's {@code SparsePool}): each
 * sparse id {@code n} gives a field named {@code base_n} (Parthenon's {@code MakeVarLabel}), which
 * is allocated per block only where needed. Ids are kept in ascending order, which is the order
 * the fields take in a package.
 *
 * <pre>{@code
 * SparsePool pool = new SparsePool("tracer", Metadata.builder(Metadata.CELL,
 *     Metadata.INDEPENDENT, Metadata.SPARSE, Metadata.FILL_GHOST).build());
 * pool.add(12);
 * pool.add(37, 3);            // this id has three components
 * pkg.addSparsePool(pool);    // fields tracer_12 and tracer_37
 * }</pre>
 */
public final class SparsePool {
  private final String baseName;
  private final Metadata sharedMetadata;
  private final TreeMap<Integer, Metadata> pool = new TreeMap<>();

  /** An empty pool; {@code metadata} must have the {@code SPARSE} flag. */
  public SparsePool(String baseName, Metadata metadata) {
    StateDescriptor.checkName(baseName);
    if (!metadata.isSet(MetadataFlag.SPARSE)) {
      throw new IllegalArgumentException("sparse pool base=" + baseName
          + " needs metadata with the SPARSE flag, got " + metadata);
    }
    this.baseName = baseName;
    this.sharedMetadata = metadata;
  }

  /** A pool with the given ids, all with the shared metadata. */
  public SparsePool(String baseName, Metadata metadata, int... sparseIds) {
    this(baseName, metadata);
    for (int id : sparseIds) {
      add(id);
    }
  }

  /** Adds an id with the shared metadata. */
  public Metadata add(int sparseId) {
    return add(sparseId, sharedMetadata);
  }

  /** Adds an id whose field has its own component shape (labels from the shared metadata dropped). */
  public Metadata add(int sparseId, int... shape) {
    Metadata.Builder b = sharedMetadata.toBuilder().shape(shape);
    if (shape.length != 1) {
      b.unset(MetadataFlag.VECTOR);
    }
    if (shape.length != 2) {
      b.unset(MetadataFlag.TENSOR);
    }
    return add(sparseId, b.componentLabels().build());
  }

  /** Adds an id with metadata of its own, which must also be {@code SPARSE}. */
  public Metadata add(int sparseId, Metadata metadata) {
    if (sparseId == FieldInfo.NO_SPARSE_ID) {
      throw new IllegalArgumentException("sparse pool base=" + baseName + ": sparse id="
          + sparseId + " is reserved for dense fields");
    }
    if (!metadata.isSet(MetadataFlag.SPARSE)) {
      throw new IllegalArgumentException("sparse pool base=" + baseName + " id=" + sparseId
          + " needs metadata with the SPARSE flag, got " + metadata);
    }
    if (pool.containsKey(sparseId)) {
      throw new IllegalArgumentException("sparse pool base=" + baseName + " already has id="
          + sparseId);
    }
    pool.put(sparseId, metadata);
    return metadata;
  }

  /** The base name. */
  public String baseName() {
    return baseName;
  }

  /** The metadata new ids start from. */
  public Metadata sharedMetadata() {
    return sharedMetadata;
  }

  /** Ids and their metadata, in ascending id order. */
  public Map<Integer, Metadata> pool() {
    return Collections.unmodifiableMap(pool);
  }

  /** Number of ids. */
  public int size() {
    return pool.size();
  }

  /** The field name of one id: {@code base_id}. */
  public static String fieldName(String baseName, int sparseId) {
    return baseName + "_" + sparseId;
  }
}
