package org.metope.mesh.field;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A package's named parameters of any type (Parthenon's {@code Params}), e.g. the CFL number read
 * from the deck once at setup and then used by the package's callbacks.
 *
 * <p>Parameters are immutable unless added as {@link Mutability#MUTABLE} or {@link
 * Mutability#RESTART}. Asking for a missing key, or for a key with the wrong type, is a
 * programming error reported as {@code param key=cfl ...} with the stored and requested types.
 * Keys keep insertion order. Read parameters once outside hot loops: values are stored boxed.
 */
public final class Params {
  /** Whether a parameter may change after it is added (Parthenon's {@code Mutability}). */
  public enum Mutability {
    /** Fixed once added (the default). */
    IMMUTABLE,
    /** May be updated at run time. */
    MUTABLE,
    /** May be updated at run time and is read back from restart files. */
    RESTART
  }

  private record Entry(Object value, Class<?> type, Mutability mutability) {}

  private final String owner;
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /** Creates an empty set; {@code owner} (the package label) appears in error messages. */
  public Params(String owner) {
    this.owner = owner;
  }

  /** Adds an immutable parameter; the key must be new. */
  public void add(String key, Object value) {
    add(key, value, Mutability.IMMUTABLE);
  }

  /** Adds a parameter; the key must be new and the value not null. */
  public void add(String key, Object value, Mutability mutability) {
    if (value == null) {
      throw new IllegalArgumentException(where(key) + " value=null: parameters must not be null");
    }
    if (entries.containsKey(key)) {
      throw new IllegalArgumentException(where(key) + " already exists with value="
          + entries.get(key).value);
    }
    entries.put(key, new Entry(value, value.getClass(), mutability));
  }

  /** Replaces the value of a mutable parameter with one of the same type. */
  public void update(String key, Object value) {
    Entry e = entry(key);
    if (e.mutability == Mutability.IMMUTABLE) {
      throw new IllegalStateException(where(key) + " is immutable: add it as MUTABLE to update it");
    }
    if (value == null || value.getClass() != e.type) {
      throw new IllegalArgumentException(where(key) + " has type=" + e.type.getSimpleName()
          + ", update has type=" + (value == null ? "null" : value.getClass().getSimpleName()));
    }
    entries.put(key, new Entry(value, e.type, e.mutability));
  }

  /** The value of {@code key}, which must have been added with type {@code type}. */
  public <T> T get(String key, Class<T> type) {
    Entry e = entry(key);
    if (!type.isInstance(e.value)) {
      throw new IllegalArgumentException(where(key) + " has type=" + e.type.getSimpleName()
          + ", requested type=" + type.getSimpleName());
    }
    return type.cast(e.value);
  }

  /** The value of {@code key}, adding {@code defaultValue} (immutable) when absent. */
  @SuppressWarnings("unchecked")
  public <T> T getOrAdd(String key, T defaultValue) {
    if (!entries.containsKey(key)) {
      add(key, defaultValue);
    }
    return (T) get(key, defaultValue.getClass());
  }

  /** A {@code double} parameter (added as a {@code Double}). */
  public double getDouble(String key) {
    return get(key, Double.class);
  }

  /** An {@code int} parameter (added as an {@code Integer}). */
  public int getInt(String key) {
    return get(key, Integer.class);
  }

  /** A {@code boolean} parameter (added as a {@code Boolean}). */
  public boolean getBoolean(String key) {
    return get(key, Boolean.class);
  }

  /** A {@code String} parameter. */
  public String getString(String key) {
    return get(key, String.class);
  }

  /** Whether {@code key} has been added. */
  public boolean hasKey(String key) {
    return entries.containsKey(key);
  }

  /** The type a key was added with. */
  public Class<?> type(String key) {
    return entry(key).type;
  }

  /** The mutability a key was added with. */
  public Mutability mutability(String key) {
    return entry(key).mutability;
  }

  /** Every key in insertion order. */
  public List<String> keys() {
    return List.copyOf(entries.keySet());
  }

  private Entry entry(String key) {
    Entry e = entries.get(key);
    if (e == null) {
      throw new IllegalArgumentException(where(key) + " does not exist (keys=" + entries.keySet()
          + ")");
    }
    return e;
  }

  private String where(String key) {
    return "param key=" + key + " of package=" + owner;
  }
}
