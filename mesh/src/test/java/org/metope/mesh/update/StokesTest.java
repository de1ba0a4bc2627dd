package org.metope.mesh.update;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;

/**
 * The Stokes update against a curl known by hand: with edge fluxes {@code E1 = p x3}, {@code E2 =
 * q x1}, {@code E3 = r x2} at each edge's centre, {@code curl E = (r, p, q)} in 3D; in 2D the
 * x3 derivatives drop out, {@code (r, 0, q)}. Every interior face gets exactly that (Parthenon's
 * signs: {@code dB/dt = curl E}; a flipped sign or a wrong edge gives another number), and no
 * ghost face is written.
 */
class StokesTest {
  private static Mesh mesh(int ndim) {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("B", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT, Metadata.WITH_FLUXES));
    return UpdateTest.mesh(ndim, pkg);
  }

  /** A face field's fluxes are edge fluxes: the cell fields' per-direction view refuses them. */
  @Test
  void givenAFaceField_thenItsFluxesAreNotReadByDirection() {
    Mesh mesh = mesh(3);
    FieldView field = FieldView.withFluxes(mesh.meshData("base").get(0), "B");
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
        () -> field.fluxes(1));
    assertEquals("field=B has edge fluxes, not fluxes by direction: read them with flux(E1..E3,"
        + " b, n, k, j, i)", e.getMessage());
    field.flux(TopologicalElement.E1, 0, 0, 0, 0, 0); // control: the edge accessor reads them
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void givenLinearEdgeFluxes_thenEveryInteriorFaceGetsTheirCurl(int ndim) {
    Mesh mesh = mesh(ndim);
    MeshData in = mesh.meshData("base").get(0);
    MeshData dudt = mesh.meshData("dudt").get(0);
    double p = 1.5;
    double q = -0.25;
    double r = 4.0;
    FieldView field = FieldView.withFluxes(in, "B");
    FieldView rate = FieldView.of(dudt, "B");
    java.util.Arrays.fill(dudt.data(), Double.NaN);
    for (int b = 0; b < in.numBlocks(); b++) {
      UniformCartesian x = in.block(b).coords();
      IndexShape cells = in.block(b).cellBounds();
      for (int k = 0; k < cells.entireNcells(2) + (ndim > 2 ? 1 : 0); k++) {
        for (int j = 0; j <= cells.entireNcells(1); j++) {
          for (int i = 0; i <= cells.entireNcells(0); i++) {
            field.setFlux(TopologicalElement.E1, b, 0, k, j, i, p * x.xf(2, k));
            field.setFlux(TopologicalElement.E2, b, 0, k, j, i, q * x.xf(0, i));
            field.setFlux(TopologicalElement.E3, b, 0, k, j, i, r * x.xf(1, j));
          }
        }
      }
    }
    Stokes.update(in, dudt, Update.fieldIds(in.state(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.FACE));
    double[] curl = {r, ndim > 2 ? p : 0.0, q};
    TopologicalElement[] faces = {
        TopologicalElement.F1, TopologicalElement.F2, TopologicalElement.F3};
    for (int b = 0; b < in.numBlocks(); b++) {
      IndexShape cells = in.block(b).cellBounds();
      for (int axis = 0; axis < 3; axis++) {
        TopologicalElement el = faces[axis];
        int written = 0;
        for (int k = 0; k < cells.entireNcells(2); k++) {
          for (int j = 0; j < cells.entireNcells(1); j++) {
            for (int i = 0; i < cells.entireNcells(0); i++) {
              double v = rate.get(el, b, 0, k, j, i);
              if (inside(cells, el, k, j, i)) {
                assertEquals(curl[axis], v, 1e-12, el + " at " + k + "," + j + "," + i);
                written++;
              } else {
                assertTrue(Double.isNaN(v), el + " ghost written at " + k + "," + j + "," + i);
              }
            }
          }
        }
        assertEquals(cells.total(IndexDomain.INTERIOR, el), written, el.toString());
      }
    }
  }

  private static boolean inside(IndexShape cells, TopologicalElement el, int k, int j, int i) {
    int[] at = {i, j, k};
    for (int axis = 0; axis < 3; axis++) {
      if (at[axis] < cells.start(axis, IndexDomain.INTERIOR, el)
          || at[axis] > cells.end(axis, IndexDomain.INTERIOR, el)) {
        return false;
      }
    }
    return true;
  }
}
