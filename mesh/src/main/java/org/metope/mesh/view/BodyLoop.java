package org.metope.mesh.view;

import org.metope.kernels.body.StageLaunch;

/** The host loop of a CELLS launch; {@link DeviceKernel} keeps one copy per body class. */
interface BodyLoop {
  /** Runs {@code launch.body} on every index of every entry of {@code launch}, on {@code a}. */
  void run(StageLaunch launch, double[] a);
}
