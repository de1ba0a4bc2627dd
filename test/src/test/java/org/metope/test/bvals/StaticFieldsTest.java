package org.metope.test.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.metope.amr.AdaptiveRefinement;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;

/**
 * GIVEN two STATIC fields filled with the linear function f = 1 + 2x + 3y on a reflecting box, one
 * declaring outflow for itself and one following the deck, and an evolving field, THEN their
 * ghosts are exchanged once at set-up, never in a stage (changing their interiors between stages
 * leaves the ghosts as they were), and once more after a remesh that refines a block, after which
 * every ghost is f at its centre (linear prolongation and restriction are exact for f) or, beyond
 * the box, f at the nearest interior centre (outflow) or at the mirrored centre (reflecting).
 */
class StaticFieldsTest {
  private static final String DECK = "<parthenon/mesh>\nrefinement = adaptive\nnumlevel = 2\n"
      + "nx1 = 16\nx1min = 0\nx1max = 1\nix1_bc = reflecting\nox1_bc = reflecting\n"
      + "nx2 = 16\nx2min = 0\nx2max = 1\nix2_bc = reflecting\nox2_bc = reflecting\n"
      + "nx3 = 1\nx3min = 0\nx3max = 1\n<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\nnx3 = 1\n";
  private static final int OUTFLOW_MASK = 1;
  private static final int REFLECTED_MASK = 2;

  private static double f(double x, double y) {
    return 1.0 + 2.0 * x + 3.0 * y;
  }

  private static StateDescriptor pkg() {
    StateDescriptor pkg = new StateDescriptor("static");
    pkg.addField("q", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("mask", Metadata.builder(Metadata.CELL, Metadata.STATIC, Metadata.FILL_GHOST)
        .boundaryCondition("outflow").build());
    pkg.addField("mirror", Metadata.of(Metadata.CELL, Metadata.STATIC, Metadata.FILL_GHOST));
    // Refine the root block over [0.25, 0.5]^2 once: inside the box, so prolongation stencils
    // never reach a physical boundary.
    pkg.setCheckRefinementBlock((md, b) -> {
      MeshBlock block = md.block(b);
      boolean target = block.loc().level() == block.mesh().rootLevel() && block.loc().lx1() == 1
          && block.loc().lx2() == 1;
      return target ? AmrTag.REFINE_VALUE : AmrTag.SAME_VALUE;
    });
    return pkg;
  }

  /** Sets {@code field}'s interior on every block to {@code scale * f}. */
  private static void fillInterior(Mesh mesh, int field, double scale) {
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape s = md.block(b).cellBounds();
        UniformCartesian xy = md.block(b).coords();
        for (int j = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
            j <= s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC); j++) {
          for (int i = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
              i <= s.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
            md.data()[md.index(field, b, 0, 0, j, i)] = scale * f(xy.x1c(i), xy.x2c(j));
          }
        }
      }
    }
  }

  /**
   * What a ghost at centre (x, y) of a block with interior centres [xs, xe] x [ys, ye] must hold:
   * f inside the box; beyond one face, f at the nearest interior centre (outflow) or the mirrored
   * centre (reflecting); NaN (not checked) beyond two.
   */
  private static double expected(double x, double y, double xs, double xe, double ys, double ye,
      boolean outflow) {
    boolean outX = x < 0 || x > 1;
    boolean outY = y < 0 || y > 1;
    if (outX && outY) {
      return Double.NaN;
    }
    if (outX) {
      double face = x < 0 ? 0 : 1;
      return f(outflow ? (x < 0 ? xs : xe) : 2 * face - x, y);
    }
    if (outY) {
      double face = y < 0 ? 0 : 1;
      return f(x, outflow ? (y < 0 ? ys : ye) : 2 * face - y);
    }
    return f(x, y);
  }

  /** Ghost cells of {@code field} that differ from {@link #expected} by more than 1e-12. */
  private static int wrongGhosts(Mesh mesh, int field, boolean outflow) {
    int wrong = 0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        IndexShape s = md.block(b).cellBounds();
        UniformCartesian xy = md.block(b).coords();
        int is = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
        int ie = s.end(0, IndexDomain.INTERIOR, TopologicalElement.CC);
        int js = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
        int je = s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC);
        for (int j = 0; j < s.entireNcells(1); j++) {
          for (int i = 0; i < s.entireNcells(0); i++) {
            if (i >= is && i <= ie && j >= js && j <= je) {
              continue;
            }
            double want = expected(xy.x1c(i), xy.x2c(j), xy.x1c(is), xy.x1c(ie), xy.x2c(js),
                xy.x2c(je), outflow);
            double got = md.data()[md.index(field, b, 0, 0, j, i)];
            if (!Double.isNaN(want) && !(Math.abs(got - want) <= 1e-12)) {
              wrong++;
            }
          }
        }
      }
    }
    return wrong;
  }

  /** The stage exchange of every partition, as a driver's stage adds it. */
  private static TaskCollection stageExchange(Mesh mesh, InOneBoundaryCommunication comm) {
    TaskCollection tc = new TaskCollection();
    List<MeshData> parts = mesh.meshData("base");
    TaskRegion region = tc.addRegion(parts.size());
    for (int p = 0; p < parts.size(); p++) {
      MeshData md = parts.get(p);
      TaskList tl = region.get(p);
      TaskId start = tl.addTask(TaskId.NONE, "start", () -> comm.startReceiveBoundaries(md));
      comm.addBoundaryExchange(start, tl, md);
    }
    return tc;
  }

  private static void run(Communicator world) {
    ParameterInput pin = ParameterInput.parse("static.in", DECK, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    Packages packages = new Packages();
    packages.add(pkg());
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    fillInterior(mesh, OUTFLOW_MASK, 1.0);
    fillInterior(mesh, REFLECTED_MASK, 1.0);
    fillInterior(mesh, 0, 1.0);
    comm.setup(mesh);
    comm.fillGhosts(mesh, "base");
    assertEquals(1, comm.staticGhostFills());
    assertEquals(0, wrongGhosts(mesh, OUTFLOW_MASK, true));
    assertEquals(0, wrongGhosts(mesh, REFLECTED_MASK, false));

    // Stages: new interiors everywhere; the evolving field's ghosts follow, the static ones not.
    fillInterior(mesh, 0, 2.0);
    fillInterior(mesh, OUTFLOW_MASK, 5.0);
    fillInterior(mesh, REFLECTED_MASK, 5.0);
    TaskCollection stage = stageExchange(mesh, comm);
    for (int s = 0; s < 3; s++) {
      stage.execute();
    }
    assertEquals(1, comm.staticGhostFills());
    assertEquals(0, wrongGhosts(mesh, OUTFLOW_MASK, true));
    assertEquals(0, wrongGhosts(mesh, REFLECTED_MASK, false));
    assertTrue(wrongGhosts(mesh, 0, false) > 0, "the evolving field's ghosts were exchanged");

    // A remesh refines one block: the static fields' ghosts are filled once more.
    fillInterior(mesh, OUTFLOW_MASK, 1.0);
    fillInterior(mesh, REFLECTED_MASK, 1.0);
    AdaptiveRefinement amr = AdaptiveRefinement.fromInput(pin, mesh, comm);
    for (MeshData md : mesh.meshData("base")) {
      mesh.refinement().tag(md);
    }
    amr.startLoop();
    assertTrue(amr.loadBalancingAndAdaptiveMeshRefinement(() -> { }));
    assertEquals(19, mesh.totalBlocks());
    assertEquals(2, comm.staticGhostFills());
    assertEquals(0, wrongGhosts(mesh, OUTFLOW_MASK, true));
    assertEquals(0, wrongGhosts(mesh, REFLECTED_MASK, false));
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {1, 2})
  void givenStaticFields_thenGhostsAreFilledAtSetUpAndRemeshOnlyWithTheirOwnConditions(
      int ranks) {
    InProcessRun.run(ranks, StaticFieldsTest::run);
  }

  @Test
  void givenAStaticFieldThatEvolvesOrAnEvolvingFieldWithItsOwnCondition_thenMisuse() {
    assertThrows(IllegalArgumentException.class, () -> Metadata.of(Metadata.CELL,
        Metadata.STATIC, Metadata.INDEPENDENT));
    assertThrows(IllegalArgumentException.class, () -> Metadata.builder(Metadata.CELL,
        Metadata.INDEPENDENT, Metadata.FILL_GHOST).boundaryCondition("outflow").build());
    assertThrows(IllegalArgumentException.class, () -> Metadata.builder(Metadata.CELL,
        Metadata.STATIC, Metadata.FILL_GHOST).boundaryCondition("periodic").build());
  }
}
