package org.metope.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.update.Update;
import org.metope.tasking.TaskStatus;

/**
 * The packages a {@link FluxDriver} runs, in package order: those with a flux function, each with
 * the ids of its fields with fluxes, and those with a source term. Made once per driver, where the
 * set-up checks run: at least one package has a flux function, every package with a flux function
 * has fields with fluxes and every package with fields with fluxes has a flux function; a
 * violation is an {@link IllegalStateException} naming the package.
 */
final class FluxPackages {
  /** Packages with a flux function, and in {@link #fields} the ids of their fields with fluxes. */
  final StateDescriptor[] withFluxes;
  final int[][] fields;
  /** Packages with a source term. */
  final StateDescriptor[] withSources;

  FluxPackages(Mesh mesh) {
    List<StateDescriptor> withFluxFunction = new ArrayList<>();
    List<int[]> ids = new ArrayList<>();
    List<StateDescriptor> withSource = new ArrayList<>();
    for (StateDescriptor pkg : mesh.packages().all()) {
      int[] own = packageFluxFields(mesh, pkg.label());
      if (pkg.calculateFluxes() != null && own.length == 0) {
        throw new IllegalStateException("package " + pkg.label() + " has a flux function but no"
            + " cell or face field declared WITH_FLUXES");
      }
      if (pkg.calculateFluxes() == null && own.length > 0) {
        throw new IllegalStateException("package " + pkg.label() + " declares fields"
            + " WITH_FLUXES but no flux function (StateDescriptor.setCalculateFluxes)");
      }
      if (pkg.calculateFluxes() != null) {
        withFluxFunction.add(pkg);
        ids.add(own);
      }
      if (pkg.sourceTerm() != null) {
        withSource.add(pkg);
      }
    }
    if (withFluxFunction.isEmpty()) {
      throw new IllegalStateException("no package computes fluxes: a flux driver needs a package"
          + " with cell fields WITH_FLUXES and a flux function"
          + " (StateDescriptor.setCalculateFluxes)");
    }
    this.withFluxes = withFluxFunction.toArray(new StateDescriptor[0]);
    this.fields = ids.toArray(new int[0][]);
    this.withSources = withSource.toArray(new StateDescriptor[0]);
  }

  /**
   * The ids of the fields with fluxes that package {@code label} provides: its cell fields, then
   * its face fields (whose fluxes are edge fluxes).
   */
  private static int[] packageFluxFields(Mesh mesh, String label) {
    int[] cells = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.CELL);
    int[] faces = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.FACE);
    int[] all = Arrays.copyOf(cells, cells.length + faces.length);
    System.arraycopy(faces, 0, all, cells.length, faces.length);
    int count = 0;
    for (int id : all) {
      FieldInfo field = mesh.resolvedPackages().field(id);
      if (field.packageName().equals(label)) {
        all[count++] = id;
      }
    }
    return Arrays.copyOf(all, count);
  }

  /** Whether some package adds a source term. */
  boolean hasSources() {
    return withSources.length > 0;
  }

  /** Every flux function on {@code md}, in package order (Parthenon's {@code CalculateFluxes}). */
  TaskStatus calculateFluxes(MeshData md) {
    for (int n = 0; n < withFluxes.length; n++) {
      withFluxes[n].calculateFluxes().calculateFluxes(md, fields[n]);
    }
    return TaskStatus.COMPLETE;
  }

  /** Every source term of {@code in}, added to {@code dudt}, in package order. */
  TaskStatus addSources(MeshData in, MeshData dudt) {
    for (StateDescriptor pkg : withSources) {
      pkg.sourceTerm().addSource(in, dudt);
    }
    return TaskStatus.COMPLETE;
  }
}
