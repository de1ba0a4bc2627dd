package org.metope.mesh.field;

/**
 * An {@code int} package parameter resolved once by {@link Params#intHandle}: {@link #get()} reads
 * it without a string look-up or a cast that can fail, and sees later {@link Params#update
 * updates}.
 */
public final class IntParam {
  private final Params params;
  private final int slot;
  private final String key;

  IntParam(Params params, int slot, String key) {
    this.params = params;
    this.slot = slot;
    this.key = key;
  }

  /** The current value. */
  public int get() {
    return ((Integer) params.valueAt(slot)).intValue();
  }

  /** The key the handle was resolved from. */
  public String key() {
    return key;
  }
}
