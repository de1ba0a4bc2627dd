package org.metope.mesh.field;

import org.metope.mesh.input.ParameterInput;

/**
 * The {@code <parthenon/sparse>} settings: whether sparse fields are enabled, the default
 * allocation and deallocation thresholds, and how many cycles a field must stay below the
 * deallocation threshold before it is freed (Parthenon's {@code SparseConfig}). The deck's
 * thresholds are the defaults of every sparse field whose {@link Metadata} sets none of its own,
 * as in Parthenon, where metadata takes its thresholds from the global configuration.
 *
 * @param enabled whether sparse allocation is on (off: every sparse field is allocated on every
 *     block, never freed, and always sends data, so answers equal those with sparse on)
 * @param allocationThreshold a sender whose boundary has no |value| at or above this sends null
 * @param deallocationThreshold a block whose values all stay below this is a candidate to free
 * @param deallocationCount cycles below the deallocation threshold before freeing
 */
public record SparseConfig(boolean enabled, double allocationThreshold,
    double deallocationThreshold, int deallocationCount) {

  /** Parthenon's defaults: enabled, thresholds 1e-12 and 1e-14, 5 cycles. */
  public static SparseConfig defaults() {
    return new SparseConfig(true, 1e-12, 1e-14, 5);
  }

  /** Reads {@code <parthenon/sparse>}, recording defaults in the deck. */
  public static SparseConfig fromInput(ParameterInput pin) {
    String block = "parthenon/sparse";
    SparseConfig d = defaults();
    boolean enabled = pin.getOrAddBoolean(block, "enable_sparse", d.enabled);
    double alloc = pin.getOrAddReal(block, "alloc_threshold", d.allocationThreshold);
    double dealloc = pin.getOrAddReal(block, "dealloc_threshold", d.deallocationThreshold);
    int count = pin.getOrAddInteger(block, "dealloc_count", d.deallocationCount);
    if (alloc < 0) {
      throw pin.error(block, "alloc_threshold", "a non-negative real");
    }
    if (dealloc < 0 || dealloc > alloc) {
      throw pin.error(block, "dealloc_threshold",
          "a non-negative real no larger than alloc_threshold");
    }
    if (count < 1) {
      throw pin.error(block, "dealloc_count", "a positive integer");
    }
    return new SparseConfig(enabled, alloc, dealloc, count);
  }

  /** The allocation threshold of {@code field}: its metadata's own, else the deck's. */
  public double allocationThreshold(Metadata field) {
    return field.hasOwnThresholds() ? field.allocationThreshold() : allocationThreshold;
  }

  /** The deallocation threshold of {@code field}: its metadata's own, else the deck's. */
  public double deallocationThreshold(Metadata field) {
    return field.hasOwnThresholds() ? field.deallocationThreshold() : deallocationThreshold;
  }
}
