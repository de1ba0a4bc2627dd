package org.metope.kernels.body;

/**
 * The bodies of the framework's stage kernels, over the flat data arena: the flux divergence, the
 * weighted sum of two containers and the built-in physical boundary conditions (outflow,
 * reflection). Each body is one run of consecutive cells or one ghost slab; the JVM path ({@code
 * Update}, {@code BoundaryConditions}) loops
 * over blocks and rows on the host and calls it, the device launchers of {@code
 * org.metope.kernels.tornado.ResidentTasks} call the same body from a parallel loop over the
 * entries of a {@link StageLaunch}: one body, two launchers. The arithmetic is Parthenon's,
 * operation for operation, so that the JVM path agrees bit for bit with a Parthenon build that
 * does not contract multiply-adds.
 */
public final class StageKernels {
  private StageKernels() {}

  /**
   * One row of {@code dudt = -div(F)} in {@code ndim} dimensions (Parthenon's {@code
   * FluxDivergence}): {@code du = a1 F1(i+1) - a1 F1(i)}, plus the same along x2 ({@code y},
   * {@code js} apart) and x3 ({@code z}, {@code ks} apart) when active, and {@code a[o + i] = -du
   * / vol}. {@code ndim} does not change inside the loop, so C2 unswitches it into one plain loop
   * per dimension count.
   */
  public static void divergenceRow(double[] a, int o, int x, int y, int z, int ndim, int is,
      int ie, int js, int ks, double a1, double a2, double a3, double vol) {
    for (int i = is; i <= ie; i++) {
      double du = a1 * a[x + i + 1] - a1 * a[x + i];
      if (ndim >= 2) {
        du += a2 * a[y + i + js] - a2 * a[y + i];
      }
      if (ndim == 3) {
        du += a3 * a[z + i + ks] - a3 * a[z + i];
      }
      a[o + i] = -du / vol;
    }
  }

  /**
   * One ghost slab of a physical boundary (Parthenon's generic outflow and reflecting conditions)
   * on one component of {@code ni x nj x nk} cells from {@code base}: ghost layers {@code
   * first..first+nghost-1} along {@code axis}, over the whole extent of the other two axes (their
   * ghosts too), each take {@code sign} times layer {@code ref} (outflow, {@code reflect = 0}) or
   * layer {@code ref - g} (reflection, {@code reflect = 1}, with {@code ref} twice the interior
   * edge plus or minus one, so that ghost {@code g} mirrors an interior layer).
   */
  public static void ghostSlab(double[] a, int base, int ni, int nj, int nk, int axis, int first,
      int nghost, int ref, int reflect, double sign) {
    // (n1, s1) and (n2, s2): extents and strides of the two axes along the face.
    final int normalStride = axis == 0 ? 1 : axis == 1 ? ni : ni * nj;
    final int n1 = axis == 0 ? nj : ni;
    final int s1 = axis == 0 ? ni : 1;
    final int n2 = axis == 2 ? nj : nk;
    final int s2 = axis == 2 ? ni : ni * nj;
    for (int g = first; g < first + nghost; g++) {
      final int source = reflect == 1 ? ref - g : ref;
      for (int x2 = 0; x2 < n2; x2++) {
        for (int x1 = 0; x1 < n1; x1++) {
          final int cell = base + x1 * s1 + x2 * s2;
          a[cell + g * normalStride] = sign * a[cell + source * normalStride];
        }
      }
    }
  }

  /** {@code a[z + n] = w1 a[x + n] + w2 a[y + n]} for {@code n < length}; z may be x or y. */
  public static void weightedSum(double[] a, int z, int x, int y, int length, double w1,
      double w2) {
    for (int n = 0; n < length; n++) {
      a[z + n] = w1 * a[x + n] + w2 * a[y + n];
    }
  }
}
