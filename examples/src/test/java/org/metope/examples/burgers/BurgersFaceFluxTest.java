package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;

/**
 * The device body of the burgers fluxes ({@link BurgersFaceFlux}, launched per face)
 * write the bits of the JVM's vector loops ({@link BurgersFluxes}: {@link Reconstruction}, {@link
 * HllRows}) on every interior face of every block and direction, WENO5 and linear, with cell values
 * (ghosts included) that are smooth, random, signed zeros, zeros and ones, equal neighbours,
 * subnormal, huge, or non-finite (NaN, infinities); bits are compared raw, signed zeros included,
 * except that any two NaNs count as equal: Java does not fix a NaN's sign or payload, and C2's
 * vector and scalar {@code Math.min}/{@code max} do give NaNs of different signs here (a NaN cell
 * makes NaN fluxes on both paths).
 * The launch must write exactly the interior faces: every value it writes is counted. The
 * negative control shows that the comparison sees the last bit and the sign of zero: the HLL flux
 * with a fused multiply-add, or with the speeds taken by {@code Math.min}/{@code Math.max},
 * differs from {@link HllRows} on these values.
 */
class BurgersFaceFluxTest {
  @TempDir Path dir;

  /** 3D, 16 x 8 x 8 in 8^3 blocks, 4 ghosts, 2 scalars: 2 blocks, 5 components. */
  private static final String DECK = """
      <parthenon/job>
      problem_id = k
      <parthenon/mesh>
      nghost = 4
      nx1 = 16
      x1min = -0.5
      x1max = 0.5
      ix1_bc = periodic
      ox1_bc = periodic
      nx2 = 8
      x2min = -0.25
      x2max = 0.25
      ix2_bc = periodic
      ox2_bc = periodic
      nx3 = 8
      x3min = -0.25
      x3max = 0.25
      ix3_bc = periodic
      ox3_bc = periodic
      <parthenon/meshblock>
      nx1 = 8
      nx2 = 8
      nx3 = 8
      <parthenon/time>
      nlim = 0
      integrator = rk2
      <burgers>
      num_scalars = 2
      """;

  private record Family(String name, DoubleSupplier values) {}

  private static Family[] families(Random random) {
    double[] phase = {0.0};
    return new Family[] {
      new Family("smooth", () -> Math.sin(phase[0] += 0.05)),
      new Family("random signs", random::nextGaussian),
      new Family("zeros", () -> random.nextBoolean() ? 0.0 : -0.0),
      new Family("zeros and ones", () -> new double[] {0.0, -0.0, 1.0, -1.0}[random.nextInt(4)]),
      new Family("equal neighbours", () -> random.nextInt(4) == 0 ? 2.5 : -1.0),
      new Family("subnormal", () -> random.nextGaussian() * Double.MIN_VALUE
          * random.nextInt(1 << 20)),
      new Family("huge", () -> random.nextGaussian() * 1e300),
      new Family("non-finite", () -> new double[] {Double.NaN, Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0, -2.0}[random.nextInt(7)]),
    };
  }

  /** The partition of a mesh of {@link #DECK} with {@code recon}, no step taken. */
  private MeshData partition(String recon) throws Exception {
    ParameterInput pin = ParameterInput.parse("k.in", DECK, List.of("burgers/recon=" + recon));
    return BurgersRuns.run(pin, Files.createTempDirectory(dir, recon),
        InProcessCluster.singleRank()).mesh().meshData("base").get(0);
  }

  /**
   * Runs the JVM fluxes and the device launch (on the host) from the same arena {@code start},
   * and returns {writes, differing}: the values the launch wrote (bits other than {@code start}'s)
   * and those of them whose bits differ from the JVM's, two NaNs counting as equal.
   */
  private static int[] compare(MeshData md, double[] start) {
    int[] fields = {md.state().fieldId("U")};
    double[] a = md.data();
    System.arraycopy(start, 0, a, 0, a.length);
    BurgersFluxes.calculateFluxes(md, fields);
    double[] jvm = a.clone();
    System.arraycopy(start, 0, a, 0, a.length);
    for (StageLaunch launch : BurgersFluxes.FUNCTION.fluxLaunches(md, fields)) {
      launch.runOnHost(a, 0.0, 0.0);
    }
    int writes = 0;
    int differing = 0;
    for (int i = 0; i < a.length; i++) {
      long device = Double.doubleToRawLongBits(a[i]);
      if (device != Double.doubleToRawLongBits(start[i])) {
        writes++;
        differing += device != Double.doubleToRawLongBits(jvm[i])
            && !(Double.isNaN(a[i]) && Double.isNaN(jvm[i])) ? 1 : 0;
      }
    }
    return new int[] {writes, differing};
  }

  /**
   * An arena of {@code family}'s values whose flux storage holds a NaN with a payload that no
   * flux computes, so that every value the launch writes is seen.
   */
  private static double[] arena(MeshData md, Family family) {
    double[] start = new double[md.data().length];
    for (int i = 0; i < start.length; i++) {
      start[i] = family.values().getAsDouble();
    }
    int u = md.state().fieldId("U");
    int inst = md.layout().dataInstance(u, md.container());
    int size = md.layout().numComponents(inst) * md.layout().componentStride(inst);
    for (int b = 0; b < md.numBlocks(); b++) {
      for (int d = 1; d <= 3; d++) {
        int f = md.fluxOffsets()[ArenaLayout.fluxTableSlot(u, d, b, md.numBlocks())];
        Arrays.fill(start, f, f + size, Double.longBitsToDouble(0x7ff8_0000_0bad_f00dL));
      }
    }
    return start;
  }

  @Test
  void givenCellsOfEveryFamily_thenTheDeviceFluxesHaveTheJvmBitsOnEveryInteriorFace()
      throws Exception {
    Random random = new Random(31);
    // Interior faces of 2 blocks of 8^3 cells: 3 directions of 9 x 8 x 8, 5 components.
    int faces = 2 * 3 * 5 * 9 * 8 * 8;
    for (String recon : List.of("weno5", "linear")) {
      MeshData md = partition(recon);
      for (Family family : families(random)) {
        int[] result = compare(md, arena(md, family));
        assertEquals(0, result[1], recon + ", " + family.name() + ": fluxes with other bits");
        assertEquals(faces, result[0], recon + ", " + family.name() + ": fluxes written");
      }
    }
  }

  @Test
  void givenSignedZerosAndRoundingCases_thenFmaOrMinMaxHllDiffersFromTheVectorLoops() {
    Random random = new Random(37);
    int n = 4000;
    double[][] q = new double[4][n];
    for (double[] row : q) {
      for (int m = 0; m < n; m++) {
        row[m] = random.nextInt(3) == 0 ? random.nextGaussian()
            : (random.nextBoolean() ? 0.0 : -0.0);
      }
    }
    double[] upl = q[0];
    double[] upr = q[1];
    double[][] r = new double[7][n];
    HllRows.speeds(upl, upr, 0, n, r[0], r[1], r[2], r[3], r[4], r[5]);
    HllRows.velocity(q[2], q[3], r[0], r[1], r[2], r[3], r[5], r[6], n);
    int body = 0;
    int fma = 0;
    int minMax = 0;
    for (int m = 0; m < n; m++) {
      long expected = bits(r[6][m]);
      body += bits(BurgersFaceFlux.hll(upl[m], upr[m], q[2][m], q[3][m], 1)) != expected ? 1 : 0;
      fma += bits(velocityFlux(upl[m], upr[m], q[2][m], q[3][m], true, false)) != expected
          ? 1 : 0;
      minMax += bits(velocityFlux(upl[m], upr[m], q[2][m], q[3][m], false, true)) != expected
          ? 1 : 0;
    }
    assertEquals(0, body, "the device body");
    assertTrue(fma > 0, "a fused multiply-add should change last bits");
    assertTrue(minMax > 0, "min/max speeds should change signs of zero fluxes");
  }

  /**
   * The velocity flux with its products contracted as a device compiler may ({@code fused}), or
   * with Parthenon's min/max speeds taken literally by {@code Math.min/max} ({@code minMax}).
   */
  private static double velocityFlux(double upl, double upr, double ul, double ur, boolean fused,
      boolean minMax) {
    double lo = upr < upl ? upr : upl;
    double hi = upl < upr ? upr : upl;
    double l = minMax ? Math.min(Math.min(upl, upr), 0.0) : 0.0 < lo ? 0.0 : lo;
    double r = minMax ? Math.max(Math.max(upl, upr), 0.0) : hi < 0.0 ? 0.0 : hi;
    double den = r - l + (l * r == 0.0 ? 1.0 : 0.0);
    double sum = fused ? Math.fma(l * r, ur - ul, Math.fma(r * ul, upl, -(l * ur * upr)))
        : r * ul * upl - l * ur * upr + l * r * (ur - ul);
    return 0.5 * sum * (1.0 / den);
  }

  private static long bits(double v) {
    return Double.doubleToRawLongBits(v);
  }
}
