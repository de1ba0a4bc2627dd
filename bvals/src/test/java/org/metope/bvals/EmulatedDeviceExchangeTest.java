package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.bvals.channel.BoundaryType;
import org.metope.comm.InProcessRun;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/**
 * A sparse field exchanged on 2 ranks with one message per channel, its kernels launched by the
 * emulated device (the TornadoVM backend's launch code with the JVM as device). The field is
 * allocated everywhere and alternates between zero and non-zero, so receivers free their slices on
 * null messages and take new ones when data come back: {@code refreshSparseOffsets} moves buffer
 * offsets without a cache rebuild. Every exchange must leave the same bits as the JVM backend; the
 * negative control keeps the columns as first uploaded and reads moved slices in the old place.
 */
class EmulatedDeviceExchangeTest {
  private static final int EXCHANGES = 6;

  /** Both ranks' data arenas after each exchange, and the largest columns version seen. */
  private record Outcome(List<double[]> arenas, int columnsVersion) {}

  private static Outcome exchange(java.util.function.Supplier<KernelBackend> backends) {
    List<double[]> arenas = new ArrayList<>();
    int[] version = new int[1];
    for (int e = 0; e < 2 * EXCHANGES; e++) {
      arenas.add(null);
    }
    InProcessRun.run(2, world -> {
      StateDescriptor pkg = new StateDescriptor("sparse");
      pkg.addSparsePool("s", Metadata.of(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
          MetadataFlag.FILL_GHOST, MetadataFlag.SPARSE), 3);
      try (ExchangeFixture f = new ExchangeFixture(ExchangeFixture.periodic3d(-1), world, pkg,
          false, backends.get())) {
        MeshData md = f.mesh.meshData("base").get(0);
        for (int b = 0; b < md.numBlocks(); b++) {
          md.storage().allocateSparse(0, b);
        }
        for (int e = 0; e < EXCHANGES; e++) {
          fillInteriors(md, e % 2 == 0 ? 0.0 : 1.0 + e + world.rank());
          f.exchange.execute();
          synchronized (arenas) {
            arenas.set(2 * e + world.rank(), md.data().clone());
            version[0] = Math.max(version[0],
                f.comm.subCache(md, BoundaryType.ANY, false).table.columnsVersion());
          }
        }
      }
    });
    return new Outcome(arenas, version[0]);
  }

  private static void fillInteriors(MeshData md, double base) {
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int k = 2; k < 10; k++) {
        for (int j = 2; j < 10; j++) {
          for (int i = 2; i < 10; i++) {
            md.data()[md.index(0, b, 0, k, j, i)] = base == 0.0 ? 0.0 : base + 0.01 * (i + j + k)
                + md.block(b).gid();
          }
        }
      }
    }
  }

  private static long differing(Outcome a, Outcome b) {
    long n = 0;
    for (int e = 0; e < a.arenas().size(); e++) {
      double[] x = a.arenas().get(e);
      double[] y = b.arenas().get(e);
      for (int i = 0; i < x.length; i++) {
        n += Double.doubleToRawLongBits(x[i]) == Double.doubleToRawLongBits(y[i]) ? 0 : 1;
      }
    }
    return n;
  }

  @Test
  void givenSparseSlicesThatMove_whenExchangedOnTheEmulatedDevice_thenBitIdenticalToTheJvm() {
    Outcome jvm = exchange(() -> KernelBackends.create("jvm", 1));
    Outcome device = exchange(EmulatedDeviceBackend::new);
    assertTrue(device.columnsVersion() > 0, "no buffer offset moved: the test proves nothing");
    assertEquals(0, differing(jvm, device));
  }

  @Test
  void givenColumnsUploadedOnlyOnce_whenSparseSlicesMove_thenGhostsAreWrong() {
    Outcome jvm = exchange(() -> KernelBackends.create("jvm", 1));
    Outcome stale = exchange(() -> new EmulatedDeviceBackend(Fault.COLUMNS_UPLOADED_ONCE));
    assertTrue(differing(jvm, stale) > 0);
  }
}
