package org.metope.mesh.view;

import org.metope.kernels.body.StageLaunch;

/** The host loop of a CELLS_MINIMUM launch; {@link DeviceKernel} keeps one copy per body class. */
interface MinimumLoop {
  /** Each entry's smallest value of {@code launch.measure} into {@code launch.results}. */
  void run(StageLaunch launch, double[] a);
}
