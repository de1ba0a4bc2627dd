package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields one package declares (Parthenon's {@code AddField} and {@code AddSparsePool}): dense
 * fields' metadata and sparse pools by name, in declaration order, which {@link Packages#resolve}
 * keeps. Declaring a name twice, or a sparse field's {@code base_id} name again, is a programming
 * error.
 */
final class FieldDeclarations {
  private final String packageLabel;
  /** Dense field metadata or sparse pools by name, in declaration order. */
  private final Map<String, Object> declarations = new LinkedHashMap<>();

  FieldDeclarations(String packageLabel) {
    this.packageLabel = packageLabel;
  }

  void addField(String name, Metadata metadata) {
    StateDescriptor.checkName(name);
    if (metadata.isSet(MetadataFlag.SPARSE)) {
      throw new IllegalArgumentException("package=" + packageLabel + " field=" + name
          + " is SPARSE: declare it with addSparsePool");
    }
    checkFree(name);
    declarations.put(name, metadata);
  }

  void addSparsePool(SparsePool pool) {
    if (pool.size() == 0) {
      throw new IllegalArgumentException("package=" + packageLabel + " sparse pool base="
          + pool.baseName() + " has no sparse ids");
    }
    checkFree(pool.baseName());
    for (int id : pool.pool().keySet()) {
      checkFree(SparsePool.fieldName(pool.baseName(), id));
    }
    declarations.put(pool.baseName(), pool);
  }

  private void checkFree(String name) {
    if (fieldPresent(name) || declarations.containsKey(name)) {
      throw new IllegalArgumentException("package=" + packageLabel + " already declares name="
          + name);
    }
  }

  /** Whether {@code name} is a dense field or a sparse field ({@code base_id}). */
  boolean fieldPresent(String name) {
    if (declarations.get(name) instanceof Metadata) {
      return true;
    }
    for (Object d : declarations.values()) {
      if (d instanceof SparsePool pool) {
        for (int id : pool.pool().keySet()) {
          if (SparsePool.fieldName(pool.baseName(), id).equals(name)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The metadata of a dense field or of one sparse field ({@code base_id}). */
  Metadata fieldMetadata(String name) {
    if (declarations.get(name) instanceof Metadata m) {
      return m;
    }
    for (Object d : declarations.values()) {
      if (d instanceof SparsePool pool) {
        for (Map.Entry<Integer, Metadata> e : pool.pool().entrySet()) {
          if (SparsePool.fieldName(pool.baseName(), e.getKey()).equals(name)) {
            return e.getValue();
          }
        }
      }
    }
    throw new IllegalArgumentException("package=" + packageLabel + " has no field name=" + name
        + " (fields=" + fieldNames() + ")");
  }

  SparsePool sparsePool(String baseName) {
    if (declarations.get(baseName) instanceof SparsePool pool) {
      return pool;
    }
    throw new IllegalArgumentException("package=" + packageLabel + " has no sparse pool base="
        + baseName);
  }

  /** Names of dense fields and sparse pool base names, in declaration order. */
  List<String> declarationNames() {
    return List.copyOf(declarations.keySet());
  }

  /** The declaration of a name: a {@link Metadata} (dense), a {@link SparsePool}, or null. */
  Object declaration(String name) {
    return declarations.get(name);
  }

  /** Every field name (sparse fields as {@code base_id}, ids ascending) in declaration order. */
  List<String> fieldNames() {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, Object> e : declarations.entrySet()) {
      if (e.getValue() instanceof SparsePool pool) {
        for (int id : pool.pool().keySet()) {
          names.add(SparsePool.fieldName(pool.baseName(), id));
        }
      } else {
        names.add(e.getKey());
      }
    }
    return names;
  }
}
