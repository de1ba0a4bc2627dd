package org.metope.mesh.view;

import java.util.List;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.field.SparsePool;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;

/** Storage with every kind of field the views meet, for 1D, 2D and 3D block shapes. */
final class ViewFixtures {
  private ViewFixtures() {}

  /**
   * u: 2 components with fluxes and stage copies; w: one copy, no fluxes; g: no topology; s: a
   * sparse pool (ids 1, 2) with fluxes.
   */
  static ResolvedState state() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("u", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.WITH_FLUXES,
        Metadata.FILL_GHOST).shape(2).build());
    pkg.addField("w", Metadata.of(Metadata.CELL, Metadata.INDEPENDENT, Metadata.ONE_COPY));
    pkg.addField("g", Metadata.builder(Metadata.NONE).shape(3).build());
    SparsePool pool = new SparsePool("s", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT,
        Metadata.SPARSE, Metadata.WITH_FLUXES).build());
    pool.add(1);
    pool.add(2);
    pkg.addSparsePool(pool);
    Packages packages = new Packages();
    packages.add(pkg);
    return packages.resolve();
  }

  /**
   * f: face vector (2 components); e: edge scalar; n: node scalar; m: another face scalar; t: a
   * sparse face pool (ids 1, 2).
   */
  static ResolvedState nonCellState() {
    StateDescriptor pkg = new StateDescriptor("p");
    pkg.addField("f", Metadata.builder(Metadata.FACE, Metadata.INDEPENDENT).shape(2).build());
    pkg.addField("e", Metadata.of(Metadata.EDGE));
    pkg.addField("n", Metadata.of(Metadata.NODE));
    pkg.addField("m", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT));
    SparsePool pool = new SparsePool("t", Metadata.of(Metadata.FACE, Metadata.SPARSE));
    pool.add(1);
    pool.add(2);
    pkg.addSparsePool(pool);
    Packages packages = new Packages();
    packages.add(pkg);
    return packages.resolve();
  }

  /** Blocks of 4x3x2 interior cells and one ghost in 3D, 5x4 in 2D, 6 in 1D (the shapes()). */
  static List<IndexShape> indexShapes() {
    return List.of(new IndexShape(6, 0, 0, 1), new IndexShape(5, 4, 0, 1),
        new IndexShape(4, 3, 2, 1));
  }

  /** Four blocks of non-cell fields on {@code cells}, containers base and stage1. */
  static FieldStorage nonCellStorage(BlockShape cells) {
    return new FieldStorage(nonCellState(), cells, null, 4, List.of("base", "stage1"));
  }

  /** Shapes of 1D, 2D and 3D blocks (ghosts included). */
  static List<BlockShape> shapes() {
    return List.of(new BlockShape(8, 1, 1), new BlockShape(7, 6, 1), new BlockShape(6, 5, 4));
  }

  /** Five blocks of {@code cells}, containers base and stage1. */
  static FieldStorage storage(BlockShape cells) {
    return new FieldStorage(state(), cells, null, 5, List.of("base", "stage1"));
  }
}
