package org.metope.mesh.field;

/**
 * A {@code boolean} package parameter resolved once by {@link Params#booleanHandle}: {@link #get()} reads
 * it without a string look-up or a cast that can fail, and sees later {@link Params#update
 * updates}.
 */
public final class BooleanParam {
  private final Params params;
  private final int slot;
  private final String key;

  BooleanParam(Params params, int slot, String key) {
    this.params = params;
    this.slot = slot;
    this.key = key;
  }

  /** The current value. */
  public boolean get() {
    return ((Boolean) params.valueAt(slot)).booleanValue();
  }

  /** The key the handle was resolved from. */
  public String key() {
    return key;
  }
}
