package org.metope.mesh.view;

/**
 * The fluxes of one field through the faces of one direction on every block of a partition,
 * indexed {@code (b, n, k, j, i)}: the flux through the lower face of cell {@code (k, j, i)}
 * (Parthenon's {@code flux[X1DIR]} of a variable pack). A kernel that works one direction at a
 * time takes one of these from {@link FieldView#fluxes}, so its inner loop has no direction
 * index. Allocation-free after it is built, like {@link FieldView}.
 */
public final class FluxView {
  private final double[] a;
  private final int[] offsets;
  private final int componentStride;
  private final int kStride;
  private final int jStride;
  /** {@code ncomp, nk, nj, ni}, for {@link ViewChecks}. */
  private final int[] extents;
  private final String name;
  private final int direction;

  FluxView(double[] a, int[] offsets, int componentStride, int kStride, int jStride,
      int[] extents, String name, int direction) {
    this.a = a;
    this.offsets = offsets;
    this.componentStride = componentStride;
    this.kStride = kStride;
    this.jStride = jStride;
    this.extents = extents;
    this.name = name;
    this.direction = direction;
  }

  /** The flux through the lower face of cell {@code (k, j, i)} of partition block {@code b}. */
  public double get(int b, int n, int k, int j, int i) {
    return a[index(b, n, k, j, i)];
  }

  /** Sets the flux through the lower face of cell {@code (k, j, i)}. */
  public void set(int b, int n, int k, int j, int i, double value) {
    a[index(b, n, k, j, i)] = value;
  }

  /** The arena index of flux {@code (n, k, j, i)} of partition block {@code b}. */
  public int index(int b, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      ViewChecks.require("b", b, offsets.length, name);
      if (offsets[b] < 0) {
        throw new IllegalStateException("flux view of field=" + name + " read partition block="
            + b + ", where it has no storage");
      }
      ViewChecks.require("n", n, extents[0], name);
      ViewChecks.require("k", k, extents[1], name);
      ViewChecks.require("j", j, extents[2], name);
      ViewChecks.require("i", i, extents[3], name);
    }
    return offsets[b] + n * componentStride + k * kStride + j * jStride + i;
  }

  /** The direction of the faces, 1..3. */
  public int direction() {
    return direction;
  }
}
