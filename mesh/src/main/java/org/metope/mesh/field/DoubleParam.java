package org.metope.mesh.field;

/**
 * A {@code double} package parameter resolved once by {@link Params#doubleHandle}: {@link #get()} reads
 * it without a string look-up or a cast that can fail, and sees later {@link Params#update
 * updates}.
 */
public final class DoubleParam {
  private final Params params;
  private final int slot;
  private final String key;

  DoubleParam(Params params, int slot, String key) {
    this.params = params;
    this.slot = slot;
    this.key = key;
  }

  /** The current value. */
  public double get() {
    return ((Double) params.valueAt(slot)).doubleValue();
  }

  /** The key the handle was resolved from. */
  public String key() {
    return key;
  }
}
