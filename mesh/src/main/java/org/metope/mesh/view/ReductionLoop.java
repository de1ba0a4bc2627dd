package org.metope.mesh.view;

import org.metope.kernels.body.StageLaunch;

/** The host loop of a reduction launch; {@link DeviceKernel} keeps one copy per body class. */
interface ReductionLoop {
  /** Each entry's fold of {@code launch.measure} into {@code launch.results}. */
  void run(StageLaunch launch, double[] a);

  /** The fold of {@code launch.measure} over entry {@code e}'s box. */
  double entry(StageLaunch launch, int e, double[] a);
}
