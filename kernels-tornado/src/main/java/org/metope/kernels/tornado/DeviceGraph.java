package org.metope.kernels.tornado;

/**
 * The vocabulary in which a {@link DeviceLaunch} declares itself: what goes to the device and
 * when, which tasks run there (each one of {@link TornadoKernels}' static methods, with its
 * arguments), and what comes back. {@link TornadoKernelBackend} turns a declaration into a
 * TornadoVM task graph; {@link EmulatedDeviceBackend} runs the same declaration on the JVM with
 * copies standing for device memory. Tasks run in the order they are declared.
 */
interface DeviceGraph {
  /** Copies {@code arrays} to the device at every execution, or at the first only. */
  void upload(boolean everyExecution, Object... arrays);

  /** Copies {@code arrays} back to the host after every execution. */
  void download(Object... arrays);

  /** Task {@link TornadoKernels#clearFlags}. */
  void clearFlags(int count, int[] flags);

  /** Task {@link TornadoKernels#load}. */
  void load(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
      int[] allocated, int[] flags, double[] data, double[] buffers);

  /** Task {@link TornadoKernels#unload}. */
  void unload(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
      int[] receiveMode, double[] data, double[] buffers);

  /** Task {@link TornadoKernels#prolongate}. */
  void prolongate(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
      int[] allocated, double[] data);

  /** Task {@link TornadoKernels#restrictRows}. */
  void restrictRows(int[] subset, int count, int maxRows, int n, int[] ints, double[] reals,
      int[] allocated, double[] data);

  /** Task {@link TornadoKernels#gather}. */
  void gather(int runCount, int[] runs, double[] source, double[] staging);
}
