package org.metope.mesh.view;

import org.metope.kernels.body.StageLaunch;

/**
 * The host loop of a reduction launch (CELLS_MINIMUM, CELLS_MAXIMUM, CELLS_SUM), in a class of its
 * own so that {@link LoopCopies} can define a copy per body class (see {@link BodyLoopTemplate});
 * each block's fold is {@link StageLaunch#blockReduction}, the device's, whose call to the body
 * the JIT inlines into this copy.
 */
final class ReductionLoopTemplate implements ReductionLoop {
  @Override
  public void run(StageLaunch launch, double[] a) {
    for (int e = 0; e < launch.count; e++) {
      launch.results[e] = entry(launch, e, a);
    }
  }

  @Override
  public double entry(StageLaunch launch, int e, double[] a) {
    return StageLaunch.blockReduction(launch.kind, launch.measure, launch.width,
        launch.realWidth, launch.ints, launch.reals, e, a);
  }
}
