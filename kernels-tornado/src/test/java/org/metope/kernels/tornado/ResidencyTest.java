package org.metope.kernels.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.metope.kernels.tornado.Residency.Access;
import org.metope.kernels.tornado.Residency.Side;

class ResidencyTest {
  private static final int LAYOUT = 3;

  /** The emulated device memory of a residency, reached through a host acquire. */
  private static double[] deviceValues(Residency r) {
    r.acquireHost(Access.READ, LAYOUT);
    r.release();
    return r.acquireHost(Access.READ, LAYOUT).clone();
  }

  @Test
  void givenDeviceWrites_whenTheHostAcquires_thenTheArenaComesBackOnceAndWhole() {
    double[] host = {1, 2, 3, 4};
    DeviceTrace trace = new DeviceTrace(null);
    Residency r = Residency.emulated("data", host, LAYOUT, false, trace);
    r.acquireDevice(Access.WRITE, LAYOUT);
    r.release();
    assertEquals(Side.DEVICE, r.current());
    assertEquals(32, trace.stageToDevice());
    r.acquireHost(Access.READ, LAYOUT);
    r.release();
    assertEquals(Side.BOTH, r.current());
    assertEquals(32, trace.stageToHost());
    r.acquireHost(Access.READ, LAYOUT);
    r.release();
    r.acquireDevice(Access.READ, LAYOUT);
    r.release();
    assertEquals(32, trace.totalToHost(), "a current copy is not copied again");
    assertEquals(32, trace.totalToDevice());
  }

  @Test
  void givenHostWrites_whenTheDeviceAcquires_thenItSeesTheHostValues() {
    double[] host = new double[3];
    Residency r = Residency.emulated("data", host, LAYOUT, true, new DeviceTrace(null));
    double[] h = r.acquireHost(Access.WRITE, LAYOUT);
    h[1] = 7.0;
    r.release();
    r.acquireDevice(Access.WRITE, LAYOUT);
    r.release();
    assertEquals(7.0, deviceValues(r)[1]);
  }

  @Test
  void givenDebugPoisoning_whenTheDeviceWrites_thenTheStaleHostCopyIsPoison() {
    double[] host = {1, 2, 3};
    Residency r = Residency.emulated("data", host, LAYOUT, true, new DeviceTrace(null));
    r.acquireDevice(Access.WRITE, LAYOUT);
    r.release();
    for (double v : host) {
      assertEquals(Double.doubleToRawLongBits(Residency.POISON), Double.doubleToRawLongBits(v));
    }
    assertArrayEquals(new double[] {1, 2, 3}, r.acquireHost(Access.READ, LAYOUT));
  }

  /** Device memory the test can look into. */
  private static final class VisibleMemory implements Residency.DeviceMemory {
    final double[] copy;

    VisibleMemory(int length) {
      copy = new double[length];
    }

    @Override
    public void upload(double[] host, int offset, int length) {
      System.arraycopy(host, offset, copy, offset, length);
    }

    @Override
    public void download(double[] host, int offset, int length) {
      System.arraycopy(copy, offset, host, offset, length);
    }

    @Override
    public void fill(double value) {
      java.util.Arrays.fill(copy, value);
    }
  }

  @Test
  void givenDebugPoisoning_whenTheHostWrites_thenTheStaleDeviceCopyIsPoison() {
    double[] host = {1, 2};
    VisibleMemory device = new VisibleMemory(2);
    Residency r = new Residency("data", host, device, LAYOUT, true, new DeviceTrace(null));
    r.acquireDevice(Access.READ, LAYOUT);
    r.release();
    assertArrayEquals(new double[] {1, 2}, device.copy);
    r.acquireHost(Access.WRITE, LAYOUT);
    r.release();
    for (double v : device.copy) {
      assertEquals(Double.doubleToRawLongBits(Residency.POISON), Double.doubleToRawLongBits(v));
    }
    r.acquireDevice(Access.READ, LAYOUT);
    r.release();
    assertArrayEquals(new double[] {1, 2}, device.copy, "the upload replaced the poison");
  }

  @Test
  void givenNoPoisoning_whenTheHostWrites_thenTheDeviceCopyKeepsItsOldValues() {
    double[] host = {1, 2};
    VisibleMemory device = new VisibleMemory(2);
    Residency r = new Residency("data", host, device, LAYOUT, false, new DeviceTrace(null));
    r.acquireDevice(Access.READ, LAYOUT);
    r.release();
    r.acquireHost(Access.WRITE, LAYOUT)[0] = 9.0;
    r.release();
    assertArrayEquals(new double[] {1, 2}, device.copy);
  }

  @Test
  void givenADeviceResidentArena_whenOnlyRegionsCross_thenOnlyTheirBytesAreCounted() {
    double[] host = new double[100];
    DeviceTrace trace = new DeviceTrace(null);
    Residency r = Residency.emulated("buffers", host, LAYOUT, true, trace);
    r.acquireDevice(Access.WRITE, LAYOUT);
    trace.endStage(0, 0);
    host[10] = 5.0;
    r.copyRegionToDevice(10, 4);
    r.copyRegionToHost(50, 8);
    r.release();
    assertEquals(32, trace.stageToDevice());
    assertEquals(64, trace.stageToHost());
    assertEquals(5.0, deviceValues(r)[10]);
  }

  @Test
  void givenMisuse_thenEachIsRefusedWithItsValues() {
    Residency r = Residency.emulated("data", new double[4], LAYOUT, false, new DeviceTrace(null));
    IllegalStateException layout = assertThrows(IllegalStateException.class,
        () -> r.acquireHost(Access.READ, LAYOUT + 1));
    assertTrue(layout.getMessage().contains("layoutVersion=3 expected=4"), layout.getMessage());
    r.acquireHost(Access.READ, LAYOUT);
    assertThrows(IllegalStateException.class, () -> r.acquireDevice(Access.READ, LAYOUT));
    assertThrows(IllegalStateException.class, () -> r.copyRegionToHost(0, 1));
    r.release();
    assertThrows(IllegalStateException.class, r::release);
    r.acquireDevice(Access.WRITE, LAYOUT);
    assertThrows(IllegalArgumentException.class, () -> r.copyRegionToHost(2, 3));
  }

  @Test
  void givenTwoHostHolders_whenTheDeviceAcquires_thenItWaitsUntilBothReleased()
      throws InterruptedException {
    Residency r = Residency.emulated("data", new double[2], LAYOUT, false, new DeviceTrace(null));
    r.acquireHost(Access.READ, LAYOUT);
    java.util.concurrent.CountDownLatch otherHolds = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch otherMayRelease =
        new java.util.concurrent.CountDownLatch(1);
    Thread other = new Thread(() -> {
      r.acquireHost(Access.WRITE, LAYOUT);
      otherHolds.countDown();
      try {
        otherMayRelease.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      r.release();
    });
    other.start();
    otherHolds.await();
    java.util.concurrent.atomic.AtomicBoolean deviceHeld =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread device = new Thread(() -> {
      r.acquireDevice(Access.WRITE, LAYOUT);
      deviceHeld.set(true);
      r.release();
    });
    device.start();
    while (device.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    r.release();
    assertTrue(!deviceHeld.get(), "one host holder is left");
    otherMayRelease.countDown();
    other.join();
    device.join();
    assertTrue(deviceHeld.get());
    assertEquals(Side.DEVICE, r.current());
  }

  @Test
  void givenTheTraceSwitch_whenAStageEnds_thenOneLineSaysWhatCrossed() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DeviceTrace trace = new DeviceTrace(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    trace.toDevice("LOAD", 800);
    trace.toHost("LOAD", 80);
    trace.toDevice("UNLOAD", 8);
    trace.endStage(3, 1);
    trace.endStage(3, 2);
    assertEquals("device trace: cycle=3 stage=1 toDevice=808 toHost=80 (LOAD: 800/80, UNLOAD: 8/0)\n"
        + "device trace: cycle=3 stage=2 toDevice=0 toHost=0 (LOAD: 0/0, UNLOAD: 0/0)\n",
        bytes.toString(StandardCharsets.UTF_8));
    assertEquals(808, trace.totalToDevice());
  }
}
