package org.metope.test.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.amr.AdaptiveRefinement;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.comm.ReduceOp;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.ForwardingBoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.AmrTag;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.CurlFields;

/**
 * A divergence-free face field (Toth and Roe's internal prolongation) through two remeshes of an
 * adaptive 2D or 3D mesh with the real exchange, on 1 and 2 ranks: first a root block is refined
 * beside coarse blocks, then, with the field set to the curl at every block's own resolution (as
 * if the fine blocks had evolved), its neighbour is refined beside the first one's children, so
 * that new fine blocks meet older ones on a shared face whose fine values prolongation would not
 * give. Parthenon's
 * remesh lets the older blocks' shared values win in a first exchange and fills the new blocks'
 * insides again; after it the divergence is at round-off in every cell. The negative control
 * runs the same remeshes with the exchange's usual owners only (an exchange that ignores the
 * newly refined blocks), and finds the divergence broken next to that face.
 */
class FaceFieldRemeshTest {
  /**
   * A periodic adaptive unit mesh of 32^2 cells in 8^2 blocks (2D), or 16^3 in 8^3 (3D), up to
   * two levels of refinement.
   */
  private static String deck(int ndim) {
    StringBuilder d = new StringBuilder("<parthenon/mesh>\nrefinement = adaptive\nnumlevel = 3\n");
    for (int a = 1; a <= 3; a++) {
      boolean active = a <= ndim;
      d.append("nx").append(a).append(" = ").append(active ? 32 / (ndim - 1) : 1)
          .append("\nx").append(a).append("min = 0\nx").append(a).append("max = 1\n");
      if (active) {
        d.append("ix").append(a).append("_bc = periodic\nox").append(a).append("_bc = periodic\n");
      }
    }
    d.append("<parthenon/meshblock>\n");
    for (int a = 1; a <= 3; a++) {
      d.append("nx").append(a).append(" = ").append(a <= ndim ? 8 : 1).append('\n');
    }
    return d.toString();
  }

  /** The root block refined by the next remesh, read by the package's tagging. */
  private static final ThreadLocal<LogicalLocation> TARGET = new ThreadLocal<>();

  private static StateDescriptor pkg() {
    StateDescriptor pkg = new StateDescriptor("faces");
    pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .refinementOps(RefinementOps.DEFAULT
            .withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE))
        .build());
    pkg.setCheckRefinementBlock((md, b) -> {
      MeshBlock block = md.block(b);
      return block.loc().equals(TARGET.get()) ? AmrTag.REFINE_VALUE : AmrTag.SAME_VALUE;
    });
    return pkg;
  }

  /** The largest |div b| dx over every rank's blocks after each of the two remeshes. */
  private static double[] remeshTwice(Communicator world, int ndim, boolean parthenonsOwners) {
    ParameterInput pin = ParameterInput.parse("faces.in", deck(ndim), List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    Packages packages = new Packages();
    packages.add(pkg());
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication exchange =
        InOneBoundaryCommunication.fromInput(pin, KernelBackends.create("jvm", 1));
    BoundaryCommunication comm = parthenonsOwners ? exchange : new UsualOwners(exchange);
    comm.setup(mesh);
    for (MeshData md : mesh.meshData("base")) {
      CurlFields.fill(md, "b");
    }
    AdaptiveRefinement amr = AdaptiveRefinement.fromInput(pin, mesh, comm);
    double[] divergence = new double[2];
    LogicalLocation[] targets = ndim == 2
        ? new LogicalLocation[] {new LogicalLocation(2, 1, 1, 0), new LogicalLocation(2, 2, 1, 0)}
        : new LogicalLocation[] {new LogicalLocation(1, 0, 1, 1), new LogicalLocation(1, 1, 1, 1)};
    for (int step = 0; step < 2; step++) {
      TARGET.set(targets[step]);
      for (MeshData md : mesh.meshData("base")) {
        mesh.refinement().tag(md);
      }
      amr.startLoop();
      assertTrue(amr.loadBalancingAndAdaptiveMeshRefinement(() -> { }));
      double[] most = {0};
      for (MeshData md : mesh.meshData("base")) {
        most[0] = Math.max(most[0], CurlFields.maxDivergence(md, "b"));
      }
      world.allreduce(most, ReduceOp.MAX);
      divergence[step] = most[0];
      // The first fine blocks "evolve": the curl at their own resolution, no longer what
      // prolongation of the coarse neighbour's faces gives on the face they will share.
      for (MeshData md : mesh.meshData("base")) {
        CurlFields.fill(md, "b");
      }
    }
    int roots = ndim == 2 ? 16 : 8;
    int children = ndim == 2 ? 4 : 8;
    assertEquals(roots + 2 * (children - 1), mesh.totalBlocks());
    return divergence;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"2, 1", "2, 2", "3, 1", "3, 2"})
  void givenNewFineBlocksBesideOlderOnes_thenTheDivergenceStaysAtRoundOff(int ndim, int ranks) {
    AtomicReference<double[]> kept = new AtomicReference<>();
    AtomicReference<double[]> usual = new AtomicReference<>();
    InProcessRun.run(ranks, world -> {
      double[] a = remeshTwice(world, ndim, true);
      double[] b = remeshTwice(world, ndim, false);
      if (world.rank() == 0) {
        kept.set(a);
        usual.set(b);
      }
    });
    assertTrue(kept.get()[0] < 1e-13 && kept.get()[1] < 1e-13,
        "Parthenon's remesh: " + java.util.Arrays.toString(kept.get()));
    assertTrue(usual.get()[0] < 1e-13, "no older fine neighbour yet: " + usual.get()[0]);
    assertTrue(usual.get()[1] > 1e-6,
        "usual owners beside older fine blocks: " + usual.get()[1]);
  }

  /** The exchange, with its usual owners even while a remesh names newly refined blocks. */
  private static final class UsualOwners extends ForwardingBoundaryCommunication {
    UsualOwners(BoundaryCommunication inner) {
      super(inner);
    }

    @Override
    public void setup(Mesh mesh, Set<LogicalLocation> newlyRefined) {
      setup(mesh);
    }
  }
}
