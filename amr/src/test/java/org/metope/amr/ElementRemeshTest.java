package org.metope.amr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.kernels.JvmKernelBackend;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.RefinementOps;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.forest.LogicalLocation;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.CurlFields;
import org.metope.mesh.view.FieldView;

/**
 * Face, edge and node fields through a remesh: a root block is refined, then its children merge
 * back. Face fields {@code b} (Toth and Roe's internal prolongation) and {@code a} (internal
 * averaging) start as the discrete curl of a smooth vector potential on every face, ghosts
 * included, so every cell's divergence is zero to round-off; the edge field {@code e} and the
 * node field {@code n} start as a linear function of position. After each remesh {@code b}'s
 * divergence stays at round-off in every cell of every block (restriction keeps it too, since a
 * coarse face is the average of the fine faces on it), {@code a}'s does not on the new fine
 * blocks (the negative control: averaging inside a coarse cell does not keep the divergence of a
 * non-linear field), and {@code e} and {@code n} are the linear function in every interior value.
 */
class ElementRemeshTest {
  private static StateDescriptor fields() {
    StateDescriptor pkg = new StateDescriptor("elements");
    pkg.addField("b", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .refinementOps(RefinementOps.DEFAULT
            .withInternal(RefinementOps.InternalProlongation.TOTH_AND_ROE))
        .build());
    pkg.addField("a", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT, Metadata.FILL_GHOST));
    return pkg;
  }

  private static double linear(double[] x, TopologicalElement el) {
    return 1 + 2 * x[0] - 3 * x[1] + 5 * x[2] + 10 * el.elementIndex();
  }

  private static void fill(Mesh mesh) {
    for (MeshData md : mesh.meshData("base")) {
      CurlFields.fill(md, "b");
      CurlFields.fill(md, "a");
      for (String name : List.of("e", "n")) {
        FieldView v = FieldView.of(md, name);
        for (int b = 0; b < md.numBlocks(); b++) {
          UniformCartesian xs = md.block(b).coords();
          IndexShape shape = md.block(b).cellBounds();
          int blk = b;
          for (TopologicalElement el : md.state().field(name).metadata().elements()) {
            forEach(shape, el, IndexDomain.ENTIRE, (k, j, i) -> v.set(el, blk, 0, k, j, i,
                linear(CurlFields.position(xs, shape, el, k, j, i), el)));
          }
        }
      }
    }
  }

  private interface Cell {
    void at(int k, int j, int i);
  }

  private static void forEach(IndexShape shape, TopologicalElement el, IndexDomain domain,
      Cell cell) {
    for (int k = shape.start(2, domain, el); k <= shape.end(2, domain, el); k++) {
      for (int j = shape.start(1, domain, el); j <= shape.end(1, domain, el); j++) {
        for (int i = shape.start(0, domain, el); i <= shape.end(0, domain, el); i++) {
          cell.at(k, j, i);
        }
      }
    }
  }

  /** What one rank found after a remesh. */
  private record Found(double divB, double divA, long wrongLinear, long interiorValues) {}

  /** Largest |div| dx of b and a over every interior cell, and the linear check of e and n. */
  private static Found check(Mesh mesh) {
    double[] div = new double[2];
    long[] linear = new long[2];
    for (MeshData md : mesh.meshData("base")) {
      div[0] = Math.max(div[0], CurlFields.maxDivergence(md, "b"));
      div[1] = Math.max(div[1], CurlFields.maxDivergence(md, "a"));
      for (String name : List.of("e", "n")) {
        FieldView v = FieldView.of(md, name);
        for (int b = 0; b < md.numBlocks(); b++) {
          IndexShape shape = md.block(b).cellBounds();
          UniformCartesian xs = md.block(b).coords();
          int blk = b;
          for (TopologicalElement el : md.state().field(name).metadata().elements()) {
            forEach(shape, el, IndexDomain.INTERIOR, (k, j, i) -> {
              double expected = linear(CurlFields.position(xs, shape, el, k, j, i), el);
              linear[1]++;
              double error = Math.abs(v.get(el, blk, 0, k, j, i) - expected);
              if (!(error <= 1e-12 * (1 + Math.abs(expected)))) {
                linear[0]++;
              }
            });
          }
        }
      }
    }
    return new Found(div[0], div[1], linear[0], linear[1]);
  }

  private static Found[] refineThenMerge(Communicator comm, int ndim) {
    String deck = ndim == 2 ? AmrFixtures.deck2d(32, 8, 3, "") : AmrFixtures.deck3d(16, 8, 3, "");
    LogicalLocation root = ndim == 2 ? new LogicalLocation(2, 1, 1, 0)
        : new LogicalLocation(1, 1, 0, 1);
    Mesh mesh = AmrFixtures.mesh(AmrFixtures.pin(deck), fields(), comm);
    fill(mesh);
    BlockRecords records = BlockRecords.forMesh(mesh);
    BlockMigration migration = new BlockMigration(comm.duplicate(), new JvmKernelBackend(1),
        records, ndim, mesh.nghost());
    int[] counts = new int[mesh.blocks().size()];
    Found initial = check(mesh);
    mesh.forest().refine(root);
    counts = BlockMigrationTest.moveData(mesh, migration, counts);
    Found refined = check(mesh);
    mesh.forest().derefine(root);
    BlockMigrationTest.moveData(mesh, migration, counts);
    return new Found[] {initial, refined, check(mesh)};
  }

  @ParameterizedTest(name = "{0}D")
  @ValueSource(ints = {2, 3})
  void givenARefineAndAMerge_thenTothAndRoeKeepsTheDivergenceAndLinearFieldsStayExact(
      int ndim) {
    for (int ranks = 1; ranks <= 2; ranks++) {
      Found[][] found = new Found[ranks][];
      InProcessRun.run(ranks, comm -> found[comm.rank()] = refineThenMerge(comm, ndim));
      double averagedRefined = 0;
      for (Found[] rank : found) {
        assertTrue(rank[0].divB() < 1e-13 && rank[0].divA() < 1e-13, rank[0].toString());
        for (int step = 1; step <= 2; step++) {
          Found f = rank[step];
          assertTrue(f.divB() < 1e-13, "step " + step + " on " + ranks + " ranks: " + f);
          assertTrue(f.interiorValues() > 0, f.toString());
          assertEquals(0, f.wrongLinear(), "step " + step + " on " + ranks + " ranks: " + f);
        }
        averagedRefined = Math.max(averagedRefined, rank[1].divA());
      }
      // The negative control: averaging inside coarse cells does not keep the divergence.
      assertTrue(averagedRefined > 1e-6, "averaging inside: " + averagedRefined);
    }
  }
}
