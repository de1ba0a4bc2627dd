package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metope.mesh.input.DeckCheck;

/**
 * A package's named parameters of any type (Parthenon's {@code Params}), e.g. the CFL number read
 * from the deck once at setup and then used by the package's callbacks.
 *
 * <p>Parameters are immutable unless added as {@link Mutability#MUTABLE} or {@link
 * Mutability#RESTART}. Asking for a missing key, or for a key with the wrong type, is a
 * programming error reported as {@code param key=cfl ...} with the stored and requested types.
 * Keys keep insertion order.
 *
 * <p>Kernels and callbacks resolve a parameter once, at set-up, into a handle ({@link #handle},
 * {@link #doubleHandle}, {@link #intHandle}, {@link #booleanHandle}): an unknown key or a wrong
 * type then stops the run at set-up with one sentence ({@link SetupError}) instead of in a hot
 * loop, and each read is an array load, with no string hashing. A handle sees later {@link
 * #update updates}. The string getters stay for code that reads a parameter once.
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

  private record Entry(Object value, Class<?> type, Mutability mutability, boolean written) {}

  private final String owner;
  /** Entries in insertion order; a key's position is its slot, which handles keep. */
  private final List<Entry> slots = new ArrayList<>();
  private final Map<String, Integer> slotOfKey = new HashMap<>();
  private final List<String> keysInOrder = new ArrayList<>();

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
    add(key, value, mutability, true);
  }

  /**
   * Adds an immutable parameter that HDF5 outputs leave out: a value the Parthenon package it
   * mirrors keeps elsewhere (read from the deck where needed, or held in a type Parthenon's
   * {@code Params::WriteAllToHDF5} skips, such as a {@code std::array} or an enum), so that the
   * parameters written under a package's name are the ones Parthenon writes.
   */
  public void addUnwritten(String key, Object value) {
    add(key, value, Mutability.IMMUTABLE, false);
  }

  private void add(String key, Object value, Mutability mutability, boolean written) {
    if (value == null) {
      throw new IllegalArgumentException(where(key) + " value=null: parameters must not be null");
    }
    Integer existing = slotOfKey.get(key);
    if (existing != null) {
      throw new IllegalArgumentException(where(key) + " already exists with value="
          + slots.get(existing).value);
    }
    slotOfKey.put(key, slots.size());
    slots.add(new Entry(value, value.getClass(), mutability, written));
    keysInOrder.add(key);
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
    slots.set(slotOfKey.get(key), new Entry(value, e.type, e.mutability, e.written));
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
    if (!slotOfKey.containsKey(key)) {
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
    return slotOfKey.containsKey(key);
  }

  /** The type a key was added with. */
  public Class<?> type(String key) {
    return entry(key).type;
  }

  /** The mutability a key was added with. */
  public Mutability mutability(String key) {
    return entry(key).mutability;
  }

  /** Whether HDF5 outputs write {@code key} (all but those added with {@link #addUnwritten}). */
  public boolean written(String key) {
    return entry(key).written;
  }

  /** Every key in insertion order. */
  public List<String> keys() {
    return List.copyOf(keysInOrder);
  }

  // ---- handles -------------------------------------------------------------------------------

  /**
   * A handle on {@code key}, whose value must be a {@code type}; resolve it at set-up and call
   * {@link Param#get()} where the value is needed.
   *
   * @throws SetupError when the key was never added (naming the nearest key) or has another type
   */
  public <T> Param<T> handle(String key, Class<T> type) {
    return new Param<>(this, resolve(key, type), key, type);
  }

  /** A handle on the {@code double} parameter {@code key}; see {@link #handle}. */
  public DoubleParam doubleHandle(String key) {
    return new DoubleParam(this, resolve(key, Double.class), key);
  }

  /** A handle on the {@code int} parameter {@code key}; see {@link #handle}. */
  public IntParam intHandle(String key) {
    return new IntParam(this, resolve(key, Integer.class), key);
  }

  /** A handle on the {@code boolean} parameter {@code key}; see {@link #handle}. */
  public BooleanParam booleanHandle(String key) {
    return new BooleanParam(this, resolve(key, Boolean.class), key);
  }

  /** The value in {@code slot}, for handles: one list read, no hashing. */
  Object valueAt(int slot) {
    return slots.get(slot).value;
  }

  private int resolve(String key, Class<?> type) {
    Integer slot = slotOfKey.get(key);
    if (slot == null) {
      String guess = DeckCheck.closest(key, keysInOrder);
      throw new SetupError("package " + owner + " has no parameter " + key
          + (guess == null ? "" : " (did you mean " + guess + "?)")
          + "; add it with addParam at set-up (keys=" + keysInOrder + ")");
    }
    Class<?> stored = slots.get(slot).type;
    if (!type.isAssignableFrom(stored)) {
      throw new SetupError("parameter " + key + " of package " + owner + " has type "
          + stored.getSimpleName() + ", not " + type.getSimpleName());
    }
    return slot;
  }

  private Entry entry(String key) {
    Integer slot = slotOfKey.get(key);
    if (slot == null) {
      throw new IllegalArgumentException(where(key) + " does not exist (keys=" + keysInOrder
          + ")");
    }
    return slots.get(slot);
  }

  private String where(String key) {
    return "param key=" + key + " of package=" + owner;
  }
}
