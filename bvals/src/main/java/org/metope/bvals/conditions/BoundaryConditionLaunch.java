package org.metope.bvals.conditions;

import java.util.Arrays;
import java.util.List;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.BoundaryFlag;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * The built-in physical boundary conditions of a partition as one {@link
 * StageLaunch.Kind#PHYSICAL_BOUNDARY} launch, which a device-resident backend runs on its copy of
 * the arena: one entry per component (of each topological element) of every evolving ghost-filled
 * field of every block with a physical face, its face slots filled as {@link BoundaryFunctions}'
 * {@code outflow} and {@code reflect} fill them on the host (the same body, {@link
 * org.metope.kernels.body.StageKernels#ghostSlab}). Built once per partition and layout, when the
 * exchange's tasks are made; only for meshes whose every physical face is built in ({@link
 * #builtInOnly}).
 */
final class BoundaryConditionLaunch {
  private static final BoundaryFace[] FACES = BoundaryFace.values();

  private BoundaryConditionLaunch() {}

  /** Whether every physical face of {@code mesh} names {@code outflow} or {@code reflecting}. */
  static boolean builtInOnly(Mesh mesh) {
    for (BoundaryFace face : FACES) {
      if (face.axis() < mesh.ndim() && mesh.config().boundaryFlag(face) == BoundaryFlag.USER
          && mode(mesh, face) == StageLaunch.BC_NONE) {
        return false;
      }
    }
    return true;
  }

  /** The launch for the cells ({@code coarse = false}) or coarse buffers of {@code md}. */
  static StageLaunch build(MeshData md, boolean coarse) {
    final int width = StageLaunch.Kind.PHYSICAL_BOUNDARY.width;
    Mesh mesh = md.block(0).mesh();
    ArenaLayout layout = md.layout();
    int[] t = new int[0];
    int count = 0;
    for (int b = 0; b < md.numBlocks(); b++) {
      MeshBlock block = md.block(b);
      if (faceSlots(mesh, block, block.bounds(false, coarse)) == null) {
        continue;
      }
      for (FieldInfo field : md.state().fields()) {
        int inst = BoundaryFunctions.instance(md, field, b, coarse, null);
        if (inst < 0) {
          continue;
        }
        int[] faces = faceSlots(mesh, block, block.bounds(field.metadata().isFine(), coarse));
        int ni = layout.ni(inst);
        int nj = layout.nj(inst);
        int nk = layout.nk(inst);
        int ncomp = layout.numComponents(inst);
        List<TopologicalElement> elements = field.metadata().elements();
        for (int p = 0; p < elements.size() * ncomp; p++) {
          if (t.length < (count + 1) * width) {
            t = Arrays.copyOf(t, Math.max(width, 2 * t.length));
          }
          int e = count * width;
          t[e + StageLaunch.P_BASE] = layout.offset(inst, md.blockIndex(b)) + p * ni * nj * nk;
          t[e + StageLaunch.P_NI] = ni;
          t[e + StageLaunch.P_NJ] = nj;
          t[e + StageLaunch.P_NK] = nk;
          t[e + StageLaunch.P_NGHOST] = mesh.nghost();
          System.arraycopy(faces, 0, t, e + StageLaunch.P_FACES, faces.length);
          for (int f = 0; f < FACES.length; f++) {
            int slot = e + StageLaunch.P_FACES + f * StageLaunch.P_SLOT;
            int mode = t[slot + StageLaunch.P_MODE];
            if (mode == StageLaunch.BC_NONE) {
              continue;
            }
            int shift = BoundaryFunctions.elementShift(elements.get(p / ncomp), FACES[f]);
            t[slot + StageLaunch.P_FIRST] += shift;
            t[slot + StageLaunch.P_REF] += mode == StageLaunch.BC_OUTFLOW ? shift : 2 * shift;
            if (mode == StageLaunch.BC_REFLECT
                && BoundaryFunctions.isNormalComponent(field, p, ncomp, FACES[f].axis())) {
              t[slot + StageLaunch.P_MODE] = StageLaunch.BC_REFLECT_NEGATED;
            }
          }
          count++;
        }
      }
    }
    return new StageLaunch(StageLaunch.Kind.PHYSICAL_BOUNDARY, t, new double[0], count);
  }

  /**
   * The face slots of {@code block} (MODE AXIS FIRST REF each) for values in index space {@code
   * shape}; null without a physical face.
   */
  private static int[] faceSlots(Mesh mesh, MeshBlock block, IndexShape shape) {
    int[] slots = new int[FACES.length * StageLaunch.P_SLOT];
    boolean any = false;
    for (int f = 0; f < FACES.length; f++) {
      BoundaryFace face = FACES[f];
      if (face.axis() >= mesh.ndim() || block.boundaryFlag(face) != BoundaryFlag.USER) {
        continue;
      }
      int mode = mode(mesh, face);
      int slot = f * StageLaunch.P_SLOT;
      slots[slot + StageLaunch.P_MODE] = mode;
      slots[slot + StageLaunch.P_AXIS] = face.axis();
      slots[slot + StageLaunch.P_FIRST] = BoundaryFunctions.firstGhost(shape, face,
          mesh.nghost());
      slots[slot + StageLaunch.P_REF] = BoundaryFunctions.sourceLayer(shape, face,
          mode != StageLaunch.BC_OUTFLOW);
      any = true;
    }
    return any ? slots : null;
  }

  /** The slot mode of the condition the deck names for {@code face}; BC_NONE for a user one. */
  private static int mode(Mesh mesh, BoundaryFace face) {
    return switch (mesh.config().boundaryName(face)) {
      case "outflow" -> StageLaunch.BC_OUTFLOW;
      case "reflecting" -> StageLaunch.BC_REFLECT;
      default -> StageLaunch.BC_NONE;
    };
  }
}
