package org.metope.mesh.view;

import org.metope.kernels.body.StageLaunch;

/**
 * The host loop of a CELLS_MINIMUM launch, in a class of its own so that {@link LoopCopies} can
 * define a copy per body class (see {@link BodyLoopTemplate}); each block's fold is {@link
 * StageLaunch#blockMinimum}, the device's, whose call to the body the JIT inlines into this copy.
 */
final class MinimumLoopTemplate implements MinimumLoop {
  @Override
  public void run(StageLaunch launch, double[] a) {
    for (int e = 0; e < launch.count; e++) {
      launch.results[e] = StageLaunch.blockMinimum(launch.measure, launch.width,
          launch.realWidth, launch.ints, launch.reals, e, a);
    }
  }
}
