package org.metope.mesh.view;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * One field on one block, indexed {@code (n, k, j, i)}, with its fluxes {@code flux(direction,
 * n, k, j, i)} when made {@link #withFluxes} or from a {@link FieldView} that has them
 * (Parthenon's {@code ParArray4D} of one block's variable and its {@code flux[direction]}), for
 * block-level code such as history outputs and problem generators. Offsets and strides are final
 * fields, so an access allocates nothing. Built with the checks of {@link FieldView}. A face,
 * edge or node field is read by element, {@code get(F1, n, k, j, i)}, as in {@link FieldView}.
 */
public final class BlockView {
  private final double[] a;
  private final int offset;
  /** Flux offsets per direction 1..3 at {@code [direction - 1]}; -1 where there are none. */
  private final int[] fluxOffsets;
  private final int componentStride;
  /** Distance between the elements of a face or edge field ({@code F1} to {@code F2}). */
  private final int elementStride;
  private final int kStride;
  private final int jStride;
  /** {@code ncomp, nk, nj, ni, elements}, for {@link ViewChecks}. */
  private final int[] extents;
  private final String name;

  /**
   * Field {@code name} on partition block {@code b} of {@code md}.
   *
   * @throws org.metope.mesh.field.SetupError for an unknown name or a field not allocated there
   */
  public static BlockView of(MeshData md, String name, int b) {
    return make(md, ViewSetup.field(md.state(), name), b, false);
  }

  /**
   * Field {@code name} and its fluxes on partition block {@code b} of {@code md}.
   *
   * @throws org.metope.mesh.field.SetupError for an unknown name, a field without {@code
   *     WITH_FLUXES}, or a field not allocated there
   */
  public static BlockView withFluxes(MeshData md, String name, int b) {
    FieldInfo f = ViewSetup.field(md.state(), name);
    ViewSetup.requireFluxesDeclared(f);
    return make(md, f, b, true);
  }

  private static BlockView make(MeshData md, FieldInfo f, int b, boolean fluxes) {
    ViewSetup.requireAllocated(md, f, b);
    ArenaLayout layout = md.layout();
    int inst = layout.dataInstance(f.id(), md.container());
    int[] fluxOffsets = {-1, -1, -1};
    for (int d = 1; fluxes && d <= layout.fluxDirections(); d++) {
      fluxOffsets[d - 1] = layout.offset(layout.fluxInstance(f.id(), d), md.blockIndex(b));
    }
    return new BlockView(md.data(), layout.offset(inst, md.blockIndex(b)), fluxOffsets,
        layout.componentStride(inst), layout.elementStride(inst), layout.kStride(inst),
        layout.jStride(inst), new int[] {layout.numComponents(inst), layout.nk(inst),
            layout.nj(inst), layout.ni(inst), layout.numElements(inst)}, f.name());
  }

  BlockView(double[] a, int offset, int[] fluxOffsets, int componentStride, int elementStride,
      int kStride, int jStride, int[] extents, String name) {
    this.a = a;
    this.offset = offset;
    this.fluxOffsets = fluxOffsets;
    this.componentStride = componentStride;
    this.elementStride = elementStride;
    this.kStride = kStride;
    this.jStride = jStride;
    this.extents = extents;
    this.name = name;
  }

  /** The value {@code (n, k, j, i)}. */
  public double get(int n, int k, int j, int i) {
    return a[index(n, k, j, i)];
  }

  /** Sets the value {@code (n, k, j, i)}. */
  public void set(int n, int k, int j, int i, double value) {
    a[index(n, k, j, i)] = value;
  }

  /** The arena index of value {@code (n, k, j, i)}. */
  public int index(int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      check(n, k, j, i);
    }
    return offset + n * componentStride + k * kStride + j * jStride + i;
  }

  /** The value {@code (n, k, j, i)} on element {@code el} of a face, edge or node field. */
  public double get(TopologicalElement el, int n, int k, int j, int i) {
    return a[index(el, n, k, j, i)];
  }

  /** Sets the value {@code (n, k, j, i)} on element {@code el}. */
  public void set(TopologicalElement el, int n, int k, int j, int i, double value) {
    a[index(el, n, k, j, i)] = value;
  }

  /** The arena index of value {@code (n, k, j, i)} on element {@code el} ({@link FieldView}). */
  public int index(TopologicalElement el, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      ViewChecks.require("element index of " + el, el.elementIndex(), extents[4], name);
      check(n, k, j, i);
    }
    return offset + el.elementIndex() * elementStride + n * componentStride + k * kStride
        + j * jStride + i;
  }

  /** The flux through the lower {@code direction} face of cell {@code (k, j, i)}. */
  public double flux(int direction, int n, int k, int j, int i) {
    return a[fluxIndex(direction, n, k, j, i)];
  }

  /** Sets the flux through the lower {@code direction} face of cell {@code (k, j, i)}. */
  public void setFlux(int direction, int n, int k, int j, int i, double value) {
    a[fluxIndex(direction, n, k, j, i)] = value;
  }

  /** The arena index of flux {@code (direction, n, k, j, i)}. */
  public int fluxIndex(int direction, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      ViewChecks.require("direction - 1", direction - 1, 3, name);
      if (fluxOffsets[direction - 1] < 0) {
        throw new IllegalStateException("view of field=" + name + " has no fluxes through"
            + " direction=" + direction + ": build it with FieldView.withFluxes");
      }
      check(n, k, j, i);
    }
    return fluxOffsets[direction - 1] + n * componentStride + k * kStride + j * jStride + i;
  }

  private void check(int n, int k, int j, int i) {
    ViewChecks.require("n", n, extents[0], name);
    ViewChecks.require("k", k, extents[1], name);
    ViewChecks.require("j", j, extents[2], name);
    ViewChecks.require("i", i, extents[3], name);
  }

  /** Components of the field. */
  public int numComponents() {
    return extents[0];
  }
}
