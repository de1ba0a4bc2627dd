/**
 * Kernel bodies: static methods over one row, run or block of flat {@code double[]} arrays and
 * {@code int[]} tables, with no objects, lambdas or allocation, so that the JIT vectorises them and
 * TornadoVM compiles them. The JVM backend calls them from its loops, the device launchers of
 * {@code kernels.tornado} from {@code @Parallel} loops. {@link org.metope.kernels.body.StageLaunch}
 * and {@link org.metope.kernels.body.TagLaunch} are the launch tables of the stage and tagging
 * kernels.
 */
package org.metope.kernels.body;
