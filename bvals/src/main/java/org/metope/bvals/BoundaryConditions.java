package org.metope.bvals;

import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskStatus;

/**
 * Applies the physical boundary conditions (Parthenon's {@code
 * ApplyBoundaryConditionsOnCoarseOrFine}): for every block face on a non-periodic mesh boundary, in
 * face order (inner x1, outer x1, inner x2, ...), the condition named in the deck fills the whole
 * ghost slab of that face, the other axes' ghosts included, so later faces see the corners filled
 * by earlier ones. {@code outflow} and {@code reflecting} are {@link BoundaryFunctions}' built-in
 * conditions; any other name is a function the application registered for that face in the {@link
 * BoundaryFunctions} given to {@link #use}.
 *
 * Periodic faces and faces between blocks are filled by communication and skipped here.
 */
public final class BoundaryConditions {
  /** The faces in Parthenon's order; a copy, since {@code values()} allocates on every call. */
  private static final BoundaryFace[] FACES = BoundaryFace.values();
  private BoundaryFunctions functions = new BoundaryFunctions();

  /** Uses the application's registry of user conditions (before {@code setup}). */
  public void use(BoundaryFunctions registry) {
    this.functions = registry;
  }

  /** The registry in use. */
  public BoundaryFunctions functions() {
    return functions;
  }

  /**
   * Checks, before the run, that every active face of {@code config} names a built-in condition
   * or a function registered for that face ({@code ix1_bc = user} needs one), so that a missing
   * one is a deck error at set-up and not a failed task later.
   *
   * @param pin the deck the names came from, for the error's file and line; null in tests
   * @throws InputError naming the face's key when a function is missing
   */
  public void requireRegistered(MeshConfiguration config, ParameterInput pin) {
    for (BoundaryFace face : FACES) {
      String name = config.boundaryName(face);
      if (face.axis() >= config.ndim() || BoundaryFunctions.BUILT_IN.contains(name)
          || functions.find(face, name) != null) {
        continue;
      }
      String registered = functions.names(face).isEmpty() ? ""
          : ", " + String.join(", ", functions.names(face));
      String expected = "a boundary condition with a function for this face: one of "
          + String.join(", ", BoundaryFunctions.BUILT_IN) + registered
          + " (the application registers no function " + name + " for " + face.deckKey() + ")";
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
          case "outflow" -> BoundaryFunctions.outflow(md, b, face, coarse);
          case "reflecting" -> BoundaryFunctions.reflect(md, b, face, coarse);
          default -> {
            BoundaryFunction f = functions.find(face, name);
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
}
