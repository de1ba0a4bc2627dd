package org.metope.bvals.channel;

import org.metope.comm.Communicator;

/**
 * One communicator per field and exchange kind (Parthenon's {@code SetupMPIComms}: a duplicate of
 * the world per variable, and another per variable for flux corrections), so that every field
 * numbers its tags from 0 ({@link TagMap}) and boundary values and flux corrections never match
 * each other's messages.
 *
 * <p>Coalesced messages ({@link CoalescedMessage}) carry channels of several fields, so they
 * travel on two more duplicates of their own, one per kind ({@link #messages}), tagged by the
 * sending partition.
 *
 * <p>{@link Communicator#duplicate()} is collective: {@link #create} must be called on every rank
 * with the same field ids, and duplicates in one fixed order: boundary-value communicators for
 * the fields in ascending id order, then flux-correction communicators likewise, then the
 * message communicators of boundary values and of flux corrections.
 */
public final class FieldCommunicators {
  private final Communicator world;
  private final Communicator[] boundaryValues;
  private final Communicator[] fluxCorrections;
  private final Communicator[] messages;
  private final int count;

  private FieldCommunicators(Communicator world, Communicator[] boundaryValues,
      Communicator[] fluxCorrections, Communicator[] messages, int count) {
    this.world = world;
    this.boundaryValues = boundaryValues;
    this.fluxCorrections = fluxCorrections;
    this.messages = messages;
    this.count = count;
  }

  /**
   * Duplicates {@code world} once per id of {@code boundaryFieldIds}, then once per id of {@code
   * fluxCorrectionFieldIds}, then once per {@link ChannelKind} for coalesced messages.
   * Collective.
   *
   * @param boundaryFieldIds fields that exchange ghost values, strictly ascending
   * @param fluxCorrectionFieldIds fields that exchange flux corrections, strictly ascending
   */
  public static FieldCommunicators create(Communicator world, int[] boundaryFieldIds,
      int[] fluxCorrectionFieldIds) {
    if (world == null) {
      throw new IllegalArgumentException("world is null");
    }
    checkAscending(boundaryFieldIds, "boundaryFieldIds");
    checkAscending(fluxCorrectionFieldIds, "fluxCorrectionFieldIds");
    Communicator[] boundary = new Communicator[tableLength(boundaryFieldIds)];
    Communicator[] flux = new Communicator[tableLength(fluxCorrectionFieldIds)];
    for (int id : boundaryFieldIds) {
      boundary[id] = world.duplicate();
    }
    for (int id : fluxCorrectionFieldIds) {
      flux[id] = world.duplicate();
    }
    Communicator[] messages = new Communicator[ChannelKind.values().length];
    for (ChannelKind kind : ChannelKind.values()) {
      messages[kind.ordinal()] = world.duplicate();
    }
    return new FieldCommunicators(world, boundary, flux, messages,
        boundaryFieldIds.length + fluxCorrectionFieldIds.length);
  }

  private static void checkAscending(int[] ids, String name) {
    if (ids == null) {
      throw new IllegalArgumentException(name + " is null");
    }
    for (int i = 0; i < ids.length; i++) {
      if (ids[i] < 0 || (i > 0 && ids[i] <= ids[i - 1])) {
        throw new IllegalArgumentException(name + " must be non-negative and strictly ascending: "
            + name + "[" + i + "]=" + ids[i]);
      }
    }
  }

  private static int tableLength(int[] ascendingIds) {
    return ascendingIds.length == 0 ? 0 : ascendingIds[ascendingIds.length - 1] + 1;
  }

  /**
   * The communicator of {@code fieldId} for {@code kind}.
   *
   * @throws IllegalArgumentException when none was created for that field and kind
   */
  public Communicator communicator(ChannelKind kind, int fieldId) {
    Communicator[] table = kind == ChannelKind.BOUNDARY_VALUES ? boundaryValues : fluxCorrections;
    Communicator c = fieldId >= 0 && fieldId < table.length ? table[fieldId] : null;
    if (c == null) {
      throw new IllegalArgumentException("no communicator for this field: fieldId=" + fieldId
          + ", kind=" + kind);
    }
    return c;
  }

  /** The communicator of the coalesced messages of {@code kind}, whatever their fields. */
  public Communicator messages(ChannelKind kind) {
    return messages[kind.ordinal()];
  }

  /** The communicator the duplicates were made from. */
  public Communicator world() {
    return world;
  }

  /** Number of per-field duplicates made (the two message communicators not counted). */
  public int count() {
    return count;
  }
}
