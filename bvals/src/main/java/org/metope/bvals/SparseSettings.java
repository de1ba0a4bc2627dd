package org.metope.bvals;

import org.metope.mesh.input.ParameterInput;

/**
 * The {@code <parthenon/sparse>} settings: whether sparse fields are enabled, the default
 * allocation and deallocation thresholds, and how many cycles a field must stay below the
 * deallocation threshold before it is freed (Parthenon's {@code SparseConfig}).
 *
 * @param enabled whether sparse allocation is on (off: every sparse field is always allocated)
 * @param allocationThreshold a sender whose boundary has no |value| at or above this sends null
 * @param deallocationThreshold a block whose values all stay below this is a candidate to free
 * @param deallocationCount cycles below the deallocation threshold before freeing
 */
public record SparseSettings(boolean enabled, double allocationThreshold,
    double deallocationThreshold, int deallocationCount) {

  /** Parthenon's defaults: enabled, thresholds 1e-12 and 1e-14, 5 cycles. */
  public static SparseSettings defaults() {
    return new SparseSettings(true, 1e-12, 1e-14, 5);
  }

  /** Reads {@code <parthenon/sparse>}, recording defaults in the deck. */
  public static SparseSettings fromInput(ParameterInput pin) {
    String block = "parthenon/sparse";
    SparseSettings d = defaults();
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
    return new SparseSettings(enabled, alloc, dealloc, count);
  }
}
