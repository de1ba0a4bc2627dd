/**
 * The kernel backends: {@link org.metope.kernels.KernelBackend} (what the mesh and the exchange
 * launch), {@link org.metope.kernels.KernelBackends} (which one a deck selects) and the default,
 * {@link org.metope.kernels.JvmKernelBackend}, which runs the kernel bodies of {@code
 * kernels.body} over the tables of {@code kernels.table} on host threads ({@link
 * org.metope.kernels.WorkerPool}). Nothing here or in those two packages needs TornadoVM; only
 * {@code kernels.tornado} does.
 */
package org.metope.kernels;
