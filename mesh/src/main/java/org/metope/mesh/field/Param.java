package org.metope.mesh.field;

/**
 * A package parameter resolved once by {@link Params#handle}: reading it is a list read and a
 * cast, with no string look-up, and it sees later {@link Params#update updates}. The key and type
 * were checked when the handle was made, so {@link #get()} cannot fail.
 *
 * @param <T> the parameter's type
 */
public final class Param<T> {
  private final Params params;
  private final int slot;
  private final String key;
  private final Class<T> type;

  Param(Params params, int slot, String key, Class<T> type) {
    this.params = params;
    this.slot = slot;
    this.key = key;
    this.type = type;
  }

  /** The current value. */
  public T get() {
    return type.cast(params.valueAt(slot));
  }

  /** The key the handle was resolved from. */
  public String key() {
    return key;
  }
}
