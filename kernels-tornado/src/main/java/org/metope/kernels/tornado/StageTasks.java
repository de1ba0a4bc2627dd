package org.metope.kernels.tornado;

import org.metope.kernels.StageLaunch;
import org.metope.kernels.TagLaunch;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * The device launchers of the stage kernels: one device thread per (entry, k, j) row of a {@link
 * StageLaunch} (per entry for a weighted sum and a smallest step), each calling the row helpers of
 * {@link StageLaunch}, which call the bodies of {@link org.metope.kernels.StageKernels} and {@link
 * org.metope.kernels.BurgersKernels} that the JVM path calls too (the burgers fluxes: the same
 * bits as its vector loops); and of the refinement measures, one thread per entry of a {@link
 * TagLaunch} ({@link org.metope.kernels.TagKernels}). Plain static Java over primitive arrays, as
 * TornadoVM requires; {@link EmulatedDeviceBackend} runs these same methods on its device copies.
 * Rows past an entry's own extent idle.
 */
public final class StageTasks {
  private StageTasks() {}

  /** {@link StageLaunch.Kind#DONOR_CELL_CONSTANT}: one thread per (entry, k plane). */
  public static void donorCellConstant(int[] t, double[] r, int count, int maxK, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        StageLaunch.donorCellPlane(t, r, e, k, a);
      }
    }
  }

  /** {@link StageLaunch.Kind#DONOR_CELL_FIELD}: one thread per (entry, k, j) row. */
  public static void donorCellField(int[] t, int count, int maxK, int maxJ, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          StageLaunch.donorCellFieldRow(t, e, k, j, a);
        }
      }
    }
  }

  /** {@link StageLaunch.Kind#DIVERGENCE}: one thread per (entry, k, j) row. */
  public static void divergence(int[] t, double[] r, int count, int maxK, int maxJ,
      double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          StageLaunch.divergenceRow(t, r, e, k, j, a);
        }
      }
    }
  }

  /** {@link StageLaunch.Kind#WEIGHTED_SUM}: one thread per entry. */
  public static void weightedSum(int[] t, int count, double w1, double w2, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      StageLaunch.weightedSum(t, e, 0, 0, a, w1, w2);
    }
  }

  /** {@link StageLaunch.Kind#PHYSICAL_BOUNDARY}: one thread per entry, its faces in order. */
  public static void physicalBoundary(int[] t, int count, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      StageLaunch.physicalBoundary(t, e, 0, 0, a);
    }
  }

  /** {@link TagLaunch.Kind#MIN_MAX}: one thread per entry, its range into {@code out}. */
  public static void minMax(int[] t, int count, double[] a, double[] out) {
    for (@Parallel int e = 0; e < count; e++) {
      TagLaunch.minMax(t, e, a, out, e);
    }
  }

  /** {@link TagLaunch.Kind#BOX}: one thread per entry, its measure into {@code out}. */
  public static void box(int[] t, int count, double[] a, double[] out) {
    for (@Parallel int e = 0; e < count; e++) {
      TagLaunch.box(t, e, a, out, e);
    }
  }

  /** Runs {@code launch} on {@code a} into {@code out} with these launchers. */
  static void measure(TagLaunch launch, int[] t, double[] a, double[] out) {
    switch (launch.kind) {
      case MIN_MAX -> minMax(t, launch.count, a, out);
      case BOX -> box(t, launch.count, a, out);
      default -> throw new IllegalStateException("unknown tag kind: " + launch.kind);
    }
  }

  /** {@link StageLaunch.Kind#BURGERS_FLUX}: one thread per (entry, k, j) row of faces. */
  public static void burgersFluxes(int[] t, int count, int maxK, int maxJ, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          StageLaunch.burgersFluxRow(t, e, k, j, a);
        }
      }
    }
  }

  /** {@link StageLaunch.Kind#BURGERS_DERIVED}: one thread per (entry, k, j) row. */
  public static void burgersDerived(int[] t, int count, int maxK, int maxJ, double[] a) {
    for (@Parallel int e = 0; e < count; e++) {
      for (@Parallel int k = 0; k < maxK; k++) {
        for (@Parallel int j = 0; j < maxJ; j++) {
          StageLaunch.burgersDerivedRow(t, e, k, j, a);
        }
      }
    }
  }

  /** {@link StageLaunch.Kind#SMALLEST_STEP}: one thread per entry (block). */
  public static void smallestSteps(int[] t, double[] r, int count, double[] a,
      double[] results) {
    for (@Parallel int e = 0; e < count; e++) {
      StageLaunch.smallestStep(t, r, e, a, results, e);
    }
  }

  /**
   * Runs {@code launch} on {@code a} with these launchers (as a device runs them); a smallest
   * step writes {@code results}.
   */
  static void run(StageLaunch launch, int[] t, double[] r, double[] a, double w1, double w2,
      double[] results) {
    switch (launch.kind) {
      case DONOR_CELL_CONSTANT -> donorCellConstant(t, r, launch.count, launch.maxK, a);
      case DONOR_CELL_FIELD -> donorCellField(t, launch.count, launch.maxK, launch.maxJ, a);
      case DIVERGENCE -> divergence(t, r, launch.count, launch.maxK, launch.maxJ, a);
      case WEIGHTED_SUM -> weightedSum(t, launch.count, w1, w2, a);
      case PHYSICAL_BOUNDARY -> physicalBoundary(t, launch.count, a);
      case BURGERS_FLUX -> burgersFluxes(t, launch.count, launch.maxK, launch.maxJ, a);
      case BURGERS_DERIVED -> burgersDerived(t, launch.count, launch.maxK, launch.maxJ, a);
      case SMALLEST_STEP -> smallestSteps(t, r, launch.count, a, results);
      default -> throw new IllegalStateException("unknown stage kind: " + launch.kind);
    }
  }
}
