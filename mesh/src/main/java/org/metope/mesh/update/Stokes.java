package org.metope.mesh.update;

import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.tasking.TaskStatus;

/**
 * The Stokes-theorem update of face fields (Parthenon's generalised {@code Stokes} of its
 * {@code fine_advection} example, for faces): the rate of change of a face value is the
 * circulation of its field's edge fluxes around the face, divided by the face's area, so {@code
 * dudt = curl(E)} with {@code E} the edge fluxes ({@code FieldView.flux(E1..E3, ...)}). Per face
 * of x1: {@code dudt(F1) = (E3(j+1) - E3(j)) / dx2 - (E2(k+1) - E2(k)) / dx3}, and cyclically for
 * F2 and F3, each term only along an active axis (Parthenon's signs: its edge flux of a
 * magnetic field is {@code v x B}). The divergence of {@code dudt} over a cell is zero to
 * round-off whatever the edge fluxes are, and two blocks that share a face and an edge flux give
 * that face the same rate.
 *
 * <p>Writes the interior elements of every block (the faces on the block's surface included);
 * allocates nothing.
 */
public final class Stokes {
  private Stokes() {}

  /**
   * {@code dudt = curl(E)} on the interior faces of every block of {@code in} for the face fields
   * {@code fields} (declared {@code FACE} and {@code WITH_FLUXES}); blocks where either container
   * is unallocated are left alone.
   */
  public static TaskStatus update(MeshData in, MeshData dudt, int[] fields) {
    ArenaLayout layout = in.layout();
    for (int f : fields) {
      int inst = layout.dataInstance(f, in.container());
      int jStride = layout.jStride(inst);
      int kStride = layout.kStride(inst);
      for (int b = 0; b < in.numBlocks(); b++) {
        if (!in.isAllocated(f, b) || !dudt.isAllocated(f, b)) {
          continue;
        }
        int flux = in.fluxOffset(f, 1, b);
        int out = dudt.dataOffset(f, b);
        for (int n = 0; n < layout.numComponents(inst); n++) {
          int comp = n * layout.componentStride(inst);
          for (int axis = 0; axis < 3; axis++) {
            face(in.data(), in.block(b).cellBounds(), in.block(b).coords(), axis, jStride,
                kStride, flux + comp, out + comp, layout.elementStride(inst));
          }
        }
      }
    }
    return TaskStatus.COMPLETE;
  }

  /**
   * The faces normal to {@code axis} of one block and component: {@code +dE(axis+2)/dx(axis+1)
   * - dE(axis+1)/dx(axis+2)} (axes modulo 3), the edge arrays {@code elementStride} apart from
   * {@code flux}, the faces' from {@code out}, both with the strides {@code jStride, kStride}.
   */
  private static void face(double[] a, IndexShape cells, UniformCartesian coords, int axis,
      int jStride, int kStride, int flux, int out, int elementStride) {
    TopologicalElement el = axis == 0 ? TopologicalElement.F1
        : axis == 1 ? TopologicalElement.F2 : TopologicalElement.F3;
    int plus = (axis + 1) % 3;
    int minus = (axis + 2) % 3;
    boolean plusActive = cells.isActive(plus);
    boolean minusActive = cells.isActive(minus);
    int ePlus = flux + ((axis + 2) % 3) * elementStride;
    int eMinus = flux + plus * elementStride;
    double dxPlus = coords.dx(plus);
    double dxMinus = coords.dx(minus);
    int face = out + axis * elementStride;
    int stridePlus = plus == 0 ? 1 : plus == 1 ? jStride : kStride;
    int strideMinus = minus == 0 ? 1 : minus == 1 ? jStride : kStride;
    for (int k = cells.start(2, IndexDomain.INTERIOR, el);
        k <= cells.end(2, IndexDomain.INTERIOR, el); k++) {
      for (int j = cells.start(1, IndexDomain.INTERIOR, el);
          j <= cells.end(1, IndexDomain.INTERIOR, el); j++) {
        int row = k * kStride + j * jStride;
        for (int i = cells.start(0, IndexDomain.INTERIOR, el);
            i <= cells.end(0, IndexDomain.INTERIOR, el); i++) {
          int c = row + i;
          double rate = plusActive
              ? (a[ePlus + c + stridePlus] - a[ePlus + c]) / dxPlus : 0.0;
          if (minusActive) {
            rate -= (a[eMinus + c + strideMinus] - a[eMinus + c]) / dxMinus;
          }
          a[face + c] = rate;
        }
      }
    }
  }
}
