package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every field of a run, in the fixed order {@link Packages#resolve} gives them (Parthenon's
 * resolved {@code StateDescriptor}). A field's position is its id everywhere: storage tables,
 * boundary channel keys and tags, and outputs. See {@link Packages#resolve} for the order.
 */
public final class ResolvedState {
  private final List<FieldInfo> fields;
  private final Map<String, FieldInfo> byName = new HashMap<>();

  ResolvedState(List<FieldInfo> fields) {
    this.fields = List.copyOf(fields);
    for (FieldInfo f : this.fields) {
      byName.put(f.name(), f);
    }
  }

  /** Every field, ordered by id. */
  public List<FieldInfo> fields() {
    return fields;
  }

  /** The number of fields. */
  public int numFields() {
    return fields.size();
  }

  /** The field with id {@code id}. */
  public FieldInfo field(int id) {
    return fields.get(id);
  }

  /** Whether a field has this full name. */
  public boolean hasField(String name) {
    return byName.containsKey(name);
  }

  /** The field with this full name ({@code base}, {@code base_id} or {@code package::base}). */
  public FieldInfo field(String name) {
    FieldInfo f = byName.get(name);
    if (f == null) {
      throw new IllegalArgumentException("no field name=" + name + " after package resolution"
          + " (fields=" + names() + ")");
    }
    return f;
  }

  /** The id of the field with this full name. */
  public int fieldId(String name) {
    return field(name).id();
  }

  /** The fields of one sparse pool, ids ascending. */
  public List<FieldInfo> sparseFields(String baseName) {
    List<FieldInfo> pool = new ArrayList<>();
    for (FieldInfo f : fields) {
      if (f.isSparse() && f.baseName().equals(baseName)) {
        pool.add(f);
      }
    }
    return pool;
  }

  /** The fields with every one of {@code flags}, ordered by id. */
  public List<FieldInfo> fieldsWith(MetadataFlag... flags) {
    List<FieldInfo> matching = new ArrayList<>();
    for (FieldInfo f : fields) {
      if (f.metadata().allSet(flags)) {
        matching.add(f);
      }
    }
    return matching;
  }

  /** Field names ordered by id. */
  public List<String> names() {
    List<String> names = new ArrayList<>(fields.size());
    for (FieldInfo f : fields) {
      names.add(f.name());
    }
    return names;
  }
}
