package org.metope.kernels;

/** The launches a {@link KernelBackend} offers, for counting them. */
public enum KernelKind {
  /** Data arena to buffer arena, restricting where the receiver is coarser. */
  LOAD,
  /** Buffer arena (or default values) to data arena. */
  UNLOAD,
  /** Coarse buffer to fine cells. */
  PROLONGATE,
  /** Fine cells to coarse cells. */
  RESTRICT
}
