package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.kernels.body.DevicePack;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.Mesh;
import org.metope.mesh.TestMeshes;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * A package kernel over an element's index box: a cells kernel on the x2 faces of a face field
 * writes every index of the F2 box, as the host views name it, and nothing of the F1 or F3
 * values; the host run ({@link DeviceKernel#run}) and the launch's generic launcher ({@link
 * StageLaunch#runOnHost}, the loop a resident device runs) give the same arena; a per-block
 * minimum gives each block's smallest value as the views read it.
 */
class DeviceKernelTest {
  private static final String DECK = "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\n"
      + "ix1_bc = periodic\nox1_bc = periodic\nnx2 = 8\nx2min = 0\nx2max = 1\n"
      + "ix2_bc = periodic\nox2_bc = periodic\nnx3 = 1\nx3min = 0\nx3max = 1\n"
      + "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\n";

  private static double mark(double gid, int k, int j, int i) {
    return 1000 * gid + 100 * k + 10 * j + i;
  }

  private static void markFace(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    DevicePack.set(a, t, at, 0, k, j, i, mark(DevicePack.real(r, rat, 0), k, j, i));
  }

  private static double value(double[] a, int[] t, int at, double[] r, int rat, int k, int j,
      int i) {
    return DevicePack.get(a, t, at, 0, k, j, i);
  }

  private static MeshData partition() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("f", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT));
    Mesh mesh = TestMeshes.mesh(TestMeshes.pin(DECK), TestMeshes.packages(pkg),
        List.of("base"));
    return mesh.meshData("base").get(0);
  }

  @Test
  void givenACellsKernelOnF2_thenItWritesTheF2BoxAsTheViewsNameItAndNothingElse() {
    MeshData md = partition();
    DeviceKernel kernel = DeviceKernel.cells(DeviceKernelTest::markFace,
        PackDescriptor.of(md.state(), "f"), TopologicalElement.F2, IndexDomain.ENTIRE, 1,
        (m, b, n) -> m.block(b).gid());
    double[] before = md.data().clone();
    kernel.run(md);
    double[] host = md.data().clone();
    VariablePack f = PackDescriptor.of(md.state(), "f").pack(md);
    int written = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexBox box = IndexBox.of(md.block(b).cellBounds(), IndexDomain.ENTIRE,
          TopologicalElement.F2);
      for (int k = box.k().s(); k <= box.k().e(); k++) {
        for (int j = box.j().s(); j <= box.j().e(); j++) {
          for (int i = box.i().s(); i <= box.i().e(); i++) {
            assertEquals(mark(md.block(b).gid(), k, j, i),
                f.get(TopologicalElement.F2, b, 0, k, j, i));
            f.set(TopologicalElement.F2, b, 0, k, j, i, 0.0);
            written++;
          }
        }
      }
    }
    assertEquals(md.numBlocks() * 9 * 8, written, "F2 of 4x4 cells and 2 ghosts: 9 x 8 x 1");
    assertArrayEquals(before, md.data(), "nothing but F2 was written");
    System.arraycopy(before, 0, md.data(), 0, before.length);
    kernel.launch(md).runOnHost(md.data(), 0.0, 0.0);
    assertArrayEquals(host, md.data(), "the launch's generic launcher writes the same");
  }

  @Test
  void givenAMinimumOverF2_thenEachBlockGetsItsSmallestValue() {
    MeshData md = partition();
    DeviceKernel marks = DeviceKernel.cells(DeviceKernelTest::markFace,
        PackDescriptor.of(md.state(), "f"), TopologicalElement.F2, IndexDomain.INTERIOR, 1,
        (m, b, n) -> 10 - m.block(b).gid());
    marks.run(md);
    DeviceKernel smallest = DeviceKernel.minimum(DeviceKernelTest::value, new String[] {"f"},
        TopologicalElement.F2, IndexDomain.INTERIOR, 0, null);
    StageLaunch launch = smallest.launch(md);
    launch.runOnHost(md.data(), 0.0, 0.0);
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR,
        TopologicalElement.F2);
    double[] expected = new double[md.numBlocks()];
    for (int b = 0; b < md.numBlocks(); b++) {
      expected[b] = mark(10 - md.block(b).gid(), box.k().s(), box.j().s(), box.i().s());
    }
    assertArrayEquals(expected, Arrays.copyOf(launch.results, md.numBlocks()));
    double least = Arrays.stream(expected).min().getAsDouble();
    assertEquals(least, smallest.reduce(md));
    assertTrue(md.numBlocks() > 1 && expected[0] != expected[1], "blocks differ");
  }

  /**
   * A maximum and a sum over the interior F2 box, by block and over the partition: the analytic
   * values of the marks ({@code 1000 g + 100 k + 10 j + i} over the box); control: the same sum
   * over the ENTIRE box (ghost faces too) is larger.
   */
  @Test
  void givenAMaximumAndASumOverF2_thenEachBlockGetsItsAnalyticValue() {
    MeshData md = partition();
    DeviceKernel.cells(DeviceKernelTest::markFace, PackDescriptor.of(md.state(), "f"),
        TopologicalElement.F2, IndexDomain.ENTIRE, 1, (m, b, n) -> m.block(b).gid()).run(md);
    DeviceKernel largest = DeviceKernel.reduction(StageLaunch.Kind.CELLS_MAXIMUM,
        DeviceKernelTest::value, new String[] {"f"}, TopologicalElement.F2,
        IndexDomain.INTERIOR, 0, null);
    DeviceKernel total = DeviceKernel.reduction(StageLaunch.Kind.CELLS_SUM,
        DeviceKernelTest::value, new String[] {"f"}, TopologicalElement.F2,
        IndexDomain.INTERIOR, 0, null);
    IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR,
        TopologicalElement.F2);
    long ni = box.i().e() - box.i().s() + 1;
    long nj = box.j().e() - box.j().s() + 1;
    double allLargest = -Double.MAX_VALUE;
    double allSum = 0.0;
    for (int b = 0; b < md.numBlocks(); b++) {
      double gid = md.block(b).gid();
      double max = mark(gid, box.k().e(), box.j().e(), box.i().e());
      // one k plane: sum of 1000 g + 10 j + i over nj x ni faces
      double sum = ni * nj * 1000 * gid + 10 * ni * nj * (box.j().s() + box.j().e()) / 2.0
          + nj * ni * (box.i().s() + box.i().e()) / 2.0;
      assertEquals(max, largest.block(md, b), "largest of block " + b);
      assertEquals(sum, total.block(md, b), "sum of block " + b);
      allLargest = Math.max(allLargest, max);
      allSum += sum;
    }
    assertEquals(allLargest, largest.reduce(md));
    assertEquals(allSum, total.reduce(md));
    DeviceKernel withGhosts = DeviceKernel.reduction(StageLaunch.Kind.CELLS_SUM,
        DeviceKernelTest::value, new String[] {"f"}, TopologicalElement.F2, IndexDomain.ENTIRE,
        0, null);
    assertTrue(withGhosts.reduce(md) > allSum, "control: the ghost faces add to the sum");
  }
}
