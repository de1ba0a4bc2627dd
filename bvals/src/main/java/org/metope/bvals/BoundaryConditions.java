package org.metope.bvals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskStatus;

/**
 * Physical boundary conditions (Parthenon's {@code ApplyBoundaryConditionsOnCoarseOrFine} with
 * its generic outflow and reflecting conditions): for every block face on a non-periodic mesh
 * boundary, in face order (inner x1, outer x1, inner x2, ...), the condition named in the deck
 * fills the whole ghost slab of that face, the other axes' ghosts included, so later faces see the
 * corners filled by earlier ones.
 *
 * <ul>
 *   <li>{@code outflow}: each ghost takes the value of the nearest interior cell along the normal;
 *   <li>{@code reflecting}: each ghost mirrors the interior across the face; the normal component
 *       of a {@code Vector} field changes sign;
 *   <li>any other name: a {@link BoundaryFunction} registered under it.
 * </ul>
 *
 * Periodic faces and faces between blocks are filled by communication and skipped here.
 */
public final class BoundaryConditions {
  /** The faces in Parthenon's order; a copy, since {@code values()} allocates on every call. */
  private static final BoundaryFace[] FACES = BoundaryFace.values();
  private static final List<String> BUILT_IN = List.of("periodic", "outflow", "reflecting");
  private final Map<String, BoundaryFunction> userFunctions = new HashMap<>();

  /** Registers the condition used for faces whose deck name is {@code name}. */
  public void register(String name, BoundaryFunction function) {
    if ("outflow".equals(name) || "reflecting".equals(name) || "periodic".equals(name)) {
      throw new IllegalArgumentException("built-in boundary condition cannot be replaced: name="
          + name);
    }
    userFunctions.put(name, function);
  }

  /** The names of registered user conditions (for deck validation). */
  public List<String> userNames() {
    return List.copyOf(userFunctions.keySet());
  }

  /**
   * Checks, before the run, that every active face of {@code config} names a built-in condition
   * or a registered function ({@code ix1_bc = user} needs one), so that a missing one is a deck
   * error at set-up and not a failed task later.
   *
   * @param pin the deck the names came from, for the error's file and line; null in tests
   * @throws InputError naming the face's key when a function is missing
   */
  public void requireRegistered(MeshConfiguration config, ParameterInput pin) {
    for (BoundaryFace face : FACES) {
      String name = config.boundaryName(face);
      if (face.axis() >= config.ndim() || BUILT_IN.contains(name)
          || userFunctions.containsKey(name)) {
        continue;
      }
      String expected = "a boundary condition with a function: one of "
          + String.join(", ", BUILT_IN) + (userFunctions.isEmpty() ? ""
          : ", " + String.join(", ", userNames())) + " (the application registers no function"
          + " for " + name + ")";
      if (pin == null) {
        throw new IllegalStateException(face.deckKey() + "=" + name + ": " + expected);
      }
      throw pin.error("parthenon/mesh", face.deckKey(), expected);
    }
  }

  /** Applies every physical boundary of every block of {@code md} to cells or coarse buffers. */
  public TaskStatus apply(MeshData md, boolean coarse) {
    Mesh mesh = md.block(0).mesh();
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      for (BoundaryFace face : FACES) {
        if (face.axis() >= mesh.ndim() || block.boundaryFlag(face) != BoundaryFlag.USER) {
          continue;
        }
        String name = mesh.config().boundaryName(face);
        switch (name) {
          case "outflow" -> generic(md, b, face, coarse, false);
          case "reflecting" -> generic(md, b, face, coarse, true);
          default -> {
            BoundaryFunction f = userFunctions.get(name);
            if (f == null) {
              throw new IllegalStateException("no boundary function registered: name=" + name
                  + " face=" + face);
            }
            f.apply(md, b, face, coarse);
          }
        }
      }
    }
    return TaskStatus.COMPLETE;
  }

  /** Outflow or reflection of every allocated ghost-filled cell field of block {@code b}. */
  private static void generic(MeshData md, int b, BoundaryFace face, boolean coarse,
      boolean reflect) {
    MeshBlock block = md.block(b);
    IndexShape shape = coarse ? block.coarseCellBounds() : block.cellBounds();
    ArenaLayout layout = md.layout();
    double[] data = md.data();
    int axis = face.axis();
    int ref = face.isOuter() ? shape.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC)
        : shape.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
    int nghost = block.mesh().nghost();
    int first = face.isOuter() ? ref + 1 : ref - nghost;
    int mirror = 2 * ref + (face.isOuter() ? 1 : -1);
    for (FieldInfo field : md.state().fields()) {
      if (!field.metadata().isSet(MetadataFlag.FILL_GHOST)
          || !field.metadata().isSet(MetadataFlag.CELL) || !md.isAllocated(field.id(), b)) {
        continue;
      }
      int inst = coarse ? layout.coarseInstance(field.id())
          : layout.dataInstance(field.id(), md.container());
      if (inst < 0) {
        continue;
      }
      int offset = layout.offset(inst, md.blockIndex(b));
      int ni = layout.ni(inst);
      int nj = layout.nj(inst);
      int nk = layout.nk(inst);
      boolean vector = field.metadata().isSet(MetadataFlag.VECTOR);
      int ncomp = layout.numComponents(inst);
      for (int c = 0; c < ncomp; c++) {
        double sign = reflect && vector && c == axis ? -1.0 : 1.0;
        int base = offset + c * ni * nj * nk;
        fillSlab(data, base, ni, nj, nk, axis, first, nghost, reflect ? mirror : ref, reflect,
            sign);
      }
    }
  }

  /** Writes ghosts {@code first..first+nghost-1} along {@code axis} over the whole other axes. */
  private static void fillSlab(double[] data, int base, int ni, int nj, int nk, int axis,
      int first, int nghost, int ref, boolean reflect, double sign) {
    // (n1, s1) and (n2, s2): extents and strides of the two axes along the face.
    int normalStride = axis == 0 ? 1 : axis == 1 ? ni : ni * nj;
    int n1 = axis == 0 ? nj : ni;
    int s1 = axis == 0 ? ni : 1;
    int n2 = axis == 2 ? nj : nk;
    int s2 = axis == 2 ? ni : ni * nj;
    for (int g = first; g < first + nghost; g++) {
      int source = reflect ? ref - g : ref;
      for (int x2 = 0; x2 < n2; x2++) {
        for (int x1 = 0; x1 < n1; x1++) {
          int cell = base + x1 * s1 + x2 * s2;
          data[cell + g * normalStride] = sign * data[cell + source * normalStride];
        }
      }
    }
  }
}
