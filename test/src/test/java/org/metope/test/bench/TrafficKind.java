package org.metope.test.bench;

/**
 * What a point-to-point message or collective of a run is for, told apart by the duplicated
 * communicator it travels on (each subsystem duplicates the world communicator once per purpose
 * at set-up; {@link CountingCommunicator} names the duplicate from its caller).
 */
enum TrafficKind {
  /** Ghost values: per-field communicators and the coalesced boundary-value messages. */
  BOUNDARY,
  /** Flux corrections at fine-coarse faces, per field or coalesced. */
  FLUX_CORRECTION,
  /** Block data moved by a remesh or load balance ({@code amr.BlockMigration}). */
  REMESH,
  /** Blocks gathered to rank 0 for an output ({@code outputs.BlockGather}). */
  OUTPUT_GATHER,
  /** Anything on the world communicator itself: time step, history, remesh votes. */
  WORLD
}
