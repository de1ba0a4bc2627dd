package org.metope.bvals.channel;

/**
 * What a channel carries. Boundary values and flux corrections have separate channel maps,
 * separate buffers and separate per-field communicators, so both exchanges can be in flight at
 * the same time without their messages matching each other's receives.
 */
public enum ChannelKind {
  /** Ghost-zone values (Parthenon's {@code boundary_comm_map}). */
  BOUNDARY_VALUES,
  /** Fine-to-coarse face fluxes (Parthenon's {@code boundary_comm_flxcor_map}). */
  FLUX_CORRECTION
}
