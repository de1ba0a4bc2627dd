package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Analytic self-check of "in one": fill every interior with a function of the global position,
 * exchange with one load and one unload launch, count ghost cells that are wrong.
 */
class UniformExchangeTest {
  @Test
  void givenAPeriodicMesh_whenExchangedInOneLoadAndOneUnload_thenNoGhostCellIsWrong() {
    UniformExchange mesh = new UniformExchange(3, 4, 2, 2);
    mesh.fillInteriors();
    assertTrue(mesh.wrongCells() > 0, "ghosts start as NaN");
    try (KernelBackend backend = new JvmKernelBackend(2)) {
      backend.load(mesh.send, mesh.data, mesh.buffers);
      backend.unload(mesh.receive, mesh.data, mesh.buffers);
      assertEquals(1, backend.launches(KernelKind.LOAD));
      assertEquals(1, backend.launches(KernelKind.UNLOAD));
    }
    assertEquals(0, mesh.wrongCells());
    assertEquals(2 * 27 * 26, mesh.send.size);
  }
}
