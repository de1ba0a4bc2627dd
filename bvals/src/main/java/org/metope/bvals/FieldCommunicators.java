package org.metope.bvals;

import org.metope.mesh.comm.Communicator;

/**
 * One communicator per field and exchange kind (Parthenon's {@code SetupMPIComms}: a duplicate of
 * the world per variable, and another per variable for flux corrections), so that every field
 * numbers its tags from 0 ({@link TagMap}) and boundary values and flux corrections never match
 * each other's messages.
 *
 * <p>{@link Communicator#duplicate()} is collective: {@link #create} must be called on every rank
 * with the same field ids, and duplicates in one fixed order: boundary-value communicators for
 * the fields in ascending id order, then flux-correction communicators likewise.
 */
public final class FieldCommunicators {
  private final Communicator world;
  private final Communicator[] boundaryValues;
  private final Communicator[] fluxCorrections;
  private final int count;

  private FieldCommunicators(Communicator world, Communicator[] boundaryValues,
      Communicator[] fluxCorrections, int count) {
    this.world = world;
    this.boundaryValues = boundaryValues;
    this.fluxCorrections = fluxCorrections;
    this.count = count;
  }

  /**
   * Duplicates {@code world} once per id of {@code boundaryFieldIds}, then once per id of {@code
   * fluxCorrectionFieldIds}. Collective.
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
    return new FieldCommunicators(world, boundary, flux,
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

  /** The communicator the duplicates were made from. */
  public Communicator world() {
    return world;
  }

  /** Number of duplicates made. */
  public int count() {
    return count;
  }
}
