package org.metope.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KernelBackendsTest {
  @Test
  void givenJvmWithThreads_whenCreated_thenTheBackendHasThatManyThreads() {
    try (KernelBackend backend = KernelBackends.create("jvm", 3)) {
      assertEquals("jvm", backend.name());
      assertEquals(3, backend.threads());
    }
    try (KernelBackend backend = KernelBackends.create(KernelBackends.DEFAULT, 0)) {
      assertEquals(Runtime.getRuntime().availableProcessors(), backend.threads());
    }
  }

  @Test
  void givenAnUnknownName_whenCreated_thenOneSentenceNamesItAndTheChoices() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KernelBackends.create("cuda", 1));
    assertEquals("unknown kernel backend 'cuda', expected jvm or tornado", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KernelBackends.create("jvm", -1));
  }

  @Test
  void givenResidentJvm_whenCreated_thenOneSentenceSaysOnlyADeviceBackendCanBe() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KernelBackends.create("jvm", 1, true));
    assertEquals("resident = true needs a device backend (backend = tornado), got backend jvm",
        e.getMessage());
    try (KernelBackend backend = KernelBackends.create("jvm", 1, false)) {
      assertFalse(backend.resident());
    }
  }

  @Test
  void givenTornadoIsAsked_whenCreated_thenItRunsWhereAvailableOrOneLineSaysItIsNot() {
    if (KernelBackends.tornadoAvailable()) {
      try (KernelBackend backend = KernelBackends.create("tornado", 4)) {
        assertEquals("tornado", backend.name());
        assertFalse(backend.resident());
      }
      try (KernelBackend backend = KernelBackends.create("tornado", 1, true)) {
        assertTrue(backend.resident());
      }
      return;
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KernelBackends.create("tornado", 1));
    assertFalse(e.getMessage().contains("\n"));
    assertEquals("kernel backend 'tornado' is not available: run on TornadoVM's JVM (see"
        + " docs/TORNADOVM.md), or use jvm", e.getMessage());
  }
}
