package org.metope.mesh.view;

import java.util.Arrays;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * One field on every block of a {@link MeshData} partition, indexed {@code (b, n, k, j, i)}:
 * partition block, component, then cell indices with ghosts (Parthenon's {@code
 * VariablePack<Real>} of one variable, {@code v(b, n, k, j, i)}). Made {@link #withFluxes} it also
 * reads and writes the field's face fluxes, {@code flux(b, X1DIR, n, k, j, i)}, where the flux
 * through the lower face of cell {@code (k, j, i)} lives (see {@link ArenaLayout}).
 *
 * <pre>
 * FieldView q = FieldView.withFluxes(md, "advected");
 * q.setFlux(b, X1DIR, n, k, j, i, vx * q.get(b, n, k, j, i - 1));
 * </pre>
 *
 * <p><b>Face, edge and node fields</b> are read by topological element, {@code v.get(F2, b, n, k,
 * j, i)} (Parthenon's {@code v(b, TE::F2, n, k, j, i)}), with indices that run over {@link
 * IndexBox#of IndexBox.of(shape, domain, F2)}: one more along each axis on which the element sits
 * on cell boundaries. The accessors without an element read a field's first element ({@code CC},
 * {@code F1}, {@code E1} or {@code NN}).
 *
 * <pre>
 * FieldView b = FieldView.of(md, "magnetic_field");   // Metadata.FACE
 * b.set(F1, blk, 0, k, j, i, bx);                     // the x1 face at the lower i side of cell i
 * </pre>
 *
 * <p><b>Built once per launch, allocation-free after.</b> A view copies out the arena, each
 * block's offset (from {@link ArenaLayout}) and the strides into final fields, so an access is one
 * table read and the index sum, with nothing allocated; the JIT hoists the fields out of a loop
 * once the access is inlined. Because the arena array is replaced when a sparse allocation grows
 * it, build views at the start of a kernel launch, never keep one across an allocation change.
 *
 * <p><b>Checks at build time.</b> An unknown name, a field without {@code WITH_FLUXES} asked for
 * fluxes, or (except for {@link #sparse}) a field not allocated on some block of the partition
 * stops with one sentence naming the field and block. Index checks per access are behind {@link
 * ViewChecks}.
 */
public final class FieldView {
  private final double[] a;
  private final int[] offsets;
  /** Flux offsets {@code [(direction - 1) * numBlocks + b]}; null without fluxes. */
  private final int[] fluxOffsets;
  private final int componentStride;
  private final int elementStride;
  private final int numElements;
  private final int kStride;
  private final int jStride;
  private final int numBlocks;
  private final int numComponents;
  private final int nk;
  private final int nj;
  private final int ni;
  private final FieldInfo field;
  private final MeshData md;

  private FieldView(MeshData md, FieldInfo field, boolean fluxes) {
    ArenaLayout layout = md.layout();
    int inst = layout.dataInstance(field.id(), md.container());
    this.md = md;
    this.field = field;
    this.a = md.data();
    this.offsets = ViewSetup.offsets(md, inst);
    this.numBlocks = md.numBlocks();
    this.componentStride = layout.componentStride(inst);
    this.elementStride = layout.elementStride(inst);
    this.numElements = layout.numElements(inst);
    this.kStride = layout.kStride(inst);
    this.jStride = layout.jStride(inst);
    this.numComponents = layout.numComponents(inst);
    this.nk = layout.nk(inst);
    this.nj = layout.nj(inst);
    this.ni = layout.ni(inst);
    if (fluxes) {
      int dims = layout.fluxDirections();
      this.fluxOffsets = new int[3 * numBlocks];
      Arrays.fill(fluxOffsets, -1);
      for (int d = 1; d <= dims; d++) {
        System.arraycopy(ViewSetup.offsets(md, layout.fluxInstance(field.id(), d)), 0,
            fluxOffsets, (d - 1) * numBlocks, numBlocks);
      }
    } else {
      this.fluxOffsets = null;
    }
  }

  /**
   * The view of field {@code name}, which must be allocated on every block of {@code md}.
   *
   * @throws org.metope.mesh.field.SetupError for an unknown name or an unallocated block
   */
  public static FieldView of(MeshData md, String name) {
    FieldView view = new FieldView(md, ViewSetup.field(md.state(), name), false);
    view.requireAllocated();
    return view;
  }

  /**
   * The view of field {@code name} and its fluxes in every direction of the mesh (of a face
   * field: its edge fluxes, {@link #flux(TopologicalElement, int, int, int, int, int)}).
   *
   * @throws org.metope.mesh.field.SetupError for an unknown name, a field declared without {@code
   *     WITH_FLUXES}, or an unallocated block
   */
  public static FieldView withFluxes(MeshData md, String name) {
    FieldInfo f = ViewSetup.field(md.state(), name);
    ViewSetup.requireAnyFluxesDeclared(f);
    FieldView view = new FieldView(md, f, true);
    view.requireAllocated();
    return view;
  }

  /**
   * The view of field {@code name} on the blocks where it is allocated (a sparse field): {@link
   * #isAllocated} tells which; reading an unallocated block is an error the {@link ViewChecks}
   * catch.
   */
  public static FieldView sparse(MeshData md, String name) {
    return new FieldView(md, ViewSetup.field(md.state(), name), false);
  }

  private void requireAllocated() {
    for (int b = 0; b < numBlocks; b++) {
      ViewSetup.requireAllocated(md, field, b);
    }
  }

  /** The value {@code (n, k, j, i)} of partition block {@code b}. */
  public double get(int b, int n, int k, int j, int i) {
    return a[index(b, n, k, j, i)];
  }

  /** Sets the value {@code (n, k, j, i)} of partition block {@code b}. */
  public void set(int b, int n, int k, int j, int i, double value) {
    a[index(b, n, k, j, i)] = value;
  }

  /** The arena index of value {@code (n, k, j, i)} of partition block {@code b}. */
  public int index(int b, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      check(b, n, k, j, i, offsets, 0);
    }
    return offsets[b] + n * componentStride + k * kStride + j * jStride + i;
  }

  /** The value {@code (n, k, j, i)} on element {@code el} of partition block {@code b}. */
  public double get(TopologicalElement el, int b, int n, int k, int j, int i) {
    return a[index(el, b, n, k, j, i)];
  }

  /** Sets the value {@code (n, k, j, i)} on element {@code el} of partition block {@code b}. */
  public void set(TopologicalElement el, int b, int n, int k, int j, int i, double value) {
    a[index(el, b, n, k, j, i)] = value;
  }

  /**
   * The arena index of value {@code (n, k, j, i)} on element {@code el} of partition block {@code
   * b}; {@code el} must be one of the field's elements ({@link
   * org.metope.mesh.field.Metadata#elements}).
   */
  public int index(TopologicalElement el, int b, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      requireElement(el);
      check(b, n, k, j, i, offsets, 0);
    }
    return offsets[b] + el.elementIndex() * elementStride + n * componentStride + k * kStride
        + j * jStride + i;
  }

  private void requireElement(TopologicalElement el) {
    if (!field.metadata().elements().contains(el)) {
      throw new IndexOutOfBoundsException("view element=" + el + " is not one of field="
          + field.name() + "'s elements " + field.metadata().elements());
    }
  }

  /** The flux through the lower {@code direction} face of cell {@code (k, j, i)}. */
  public double flux(int b, int direction, int n, int k, int j, int i) {
    return a[fluxIndex(b, direction, n, k, j, i)];
  }

  /** Sets the flux through the lower {@code direction} face of cell {@code (k, j, i)}. */
  public void setFlux(int b, int direction, int n, int k, int j, int i, double value) {
    a[fluxIndex(b, direction, n, k, j, i)] = value;
  }

  /** The arena index of the flux {@code (direction, n, k, j, i)} of partition block {@code b}. */
  public int fluxIndex(int b, int direction, int n, int k, int j, int i) {
    int base = (direction - 1) * numBlocks;
    if (ViewChecks.ENABLED) {
      requireFluxes();
      requireCellFluxes();
      ViewChecks.require("direction - 1", direction - 1, 3, field.name());
      check(b, n, k, j, i, fluxOffsets, base);
    }
    return fluxOffsets[base + b] + n * componentStride + k * kStride + j * jStride + i;
  }

  /**
   * The edge flux of a face field along edge {@code el} ({@code E1..E3}) at {@code (n, k, j, i)}
   * (Parthenon's {@code pack.flux(b, TE::E3, n, k, j, i)}): the edge of element {@code el} at the
   * lower corner of cell {@code (k, j, i)}, indexed as the face field's elements are.
   */
  public double flux(TopologicalElement el, int b, int n, int k, int j, int i) {
    return a[fluxIndex(el, b, n, k, j, i)];
  }

  /** Sets the edge flux of a face field along edge {@code el} at {@code (n, k, j, i)}. */
  public void setFlux(TopologicalElement el, int b, int n, int k, int j, int i, double value) {
    a[fluxIndex(el, b, n, k, j, i)] = value;
  }

  /** The arena index of the edge flux {@code (el, n, k, j, i)} of partition block {@code b}. */
  public int fluxIndex(TopologicalElement el, int b, int n, int k, int j, int i) {
    if (ViewChecks.ENABLED) {
      requireFluxes();
      if ((el != TopologicalElement.E1 && el != TopologicalElement.E2
          && el != TopologicalElement.E3) || numElements != 3
          || !field.metadata().elements().contains(TopologicalElement.F1)) {
        throw new IndexOutOfBoundsException("edge flux element=" + el + " of field="
            + field.name() + ": only a face field has edge fluxes, on E1, E2, E3");
      }
      check(b, n, k, j, i, fluxOffsets, 0);
    }
    return fluxOffsets[b] + el.elementIndex() * elementStride + n * componentStride
        + k * kStride + j * jStride + i;
  }

  /**
   * Refuses a face field's fluxes where a cell field's are meant: they are edge fluxes, one
   * array shaped like the field with E1, E2, E3 as its elements, not one array per direction.
   */
  private void requireCellFluxes() {
    if (!field.metadata().elements().contains(TopologicalElement.CC)) {
      throw new IndexOutOfBoundsException("field=" + field.name() + " has edge fluxes, not"
          + " fluxes by direction: read them with flux(E1..E3, b, n, k, j, i)");
    }
  }

  /** The fluxes through {@code direction} faces as a view of their own. */
  public FluxView fluxes(int direction) {
    requireFluxes();
    requireCellFluxes();
    ViewSetup.requireDirection(md, field, direction);
    int[] dirOffsets = Arrays.copyOfRange(fluxOffsets, (direction - 1) * numBlocks,
        direction * numBlocks);
    return new FluxView(a, dirOffsets, componentStride, kStride, jStride,
        new int[] {numComponents, nk, nj, ni}, field.name(), direction);
  }

  /**
   * The distance between the numbers of neighbouring cells along {@code direction} (1..3), for
   * kernels on a {@link FlatRange} ({@link VariablePack#stride}).
   */
  public int stride(int direction) {
    return FlatRange.stride(direction, jStride, kStride);
  }

  /**
   * {@code box} in this view's cell numbering, for {@link ParFor#flat}.
   *
   * @throws IllegalArgumentException when the box leaves the field's blocks
   */
  public FlatRange flatRange(IndexBox box) {
    return FlatRange.of(box, nk, nj, ni, jStride, kStride);
  }

  /** The value of component {@code n} at cell number {@code c} of partition block {@code b}. */
  public double getFlat(int b, int n, int c) {
    return a[flatIndex(b, n, c)];
  }

  /** Sets the value of component {@code n} at cell number {@code c} of block {@code b}. */
  public void setFlat(int b, int n, int c, double value) {
    a[flatIndex(b, n, c)] = value;
  }

  private int flatIndex(int b, int n, int c) {
    if (ViewChecks.ENABLED) {
      check(b, n, 0, 0, 0, offsets, 0);
      ViewChecks.require("c", c, nk * nj * ni, field.name());
    }
    return offsets[b] + n * componentStride + c;
  }

  /** Partition block {@code b} alone, indexed {@code (n, k, j, i)}. */
  public BlockView block(int b) {
    if (offsets[b] < 0) {
      ViewSetup.requireAllocated(md, field, b);
    }
    int[] blockFluxes = new int[3];
    for (int d = 0; d < 3; d++) {
      blockFluxes[d] = fluxOffsets == null ? -1 : fluxOffsets[d * numBlocks + b];
    }
    return new BlockView(a, offsets[b], blockFluxes, componentStride, elementStride, kStride,
        jStride, new int[] {numComponents, nk, nj, ni, numElements}, field.name());
  }

  private void requireFluxes() {
    if (fluxOffsets == null) {
      throw new IllegalStateException("view of field=" + field.name() + " was built without"
          + " fluxes: build it with FieldView.withFluxes");
    }
  }

  /** Checks every index; {@code table[base + b]} is the block's offset. */
  private void check(int b, int n, int k, int j, int i, int[] table, int base) {
    ViewChecks.require("b", b, numBlocks, field.name());
    if (table[base + b] < 0) {
      throw new IllegalStateException("view of field=" + field.name() + " read block="
          + ViewSetup.blockName(md, b) + ", where it has no storage");
    }
    ViewChecks.require("n", n, numComponents, field.name());
    ViewChecks.require("k", k, nk, field.name());
    ViewChecks.require("j", j, nj, field.name());
    ViewChecks.require("i", i, ni, field.name());
  }

  /** Whether the field has storage on partition block {@code b}. */
  public boolean isAllocated(int b) {
    return offsets[b] >= 0;
  }

  /** The field's id. */
  public int fieldId() {
    return field.id();
  }

  /** The field's name. */
  public String name() {
    return field.name();
  }

  /** Blocks in the partition. */
  public int numBlocks() {
    return numBlocks;
  }

  /** Components of the field. */
  public int numComponents() {
    return numComponents;
  }

  /** The arena the view reads (for kernels that sweep whole blocks). */
  public double[] data() {
    return a;
  }

  /** Where partition block {@code b}'s values start in {@link #data()}, -1 if unallocated. */
  public int offset(int b) {
    return offsets[b];
  }

  /** Distance between components. */
  public int componentStride() {
    return componentStride;
  }

  /** Topological elements of the field: 3 for face and edge fields, else 1. */
  public int numElements() {
    return numElements;
  }

  /** Distance between the field's elements ({@code F1} to {@code F2}). */
  public int elementStride() {
    return elementStride;
  }

  /** Values in one block: elements times components times cells, ghosts included. */
  public int blockLength() {
    return numElements * elementStride;
  }
}
