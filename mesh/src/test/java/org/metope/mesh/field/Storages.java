package org.metope.mesh.field;

import java.util.List;

/** Small storages for tests. */
final class Storages {
  private Storages() {}

  /** Storage of one package's fields on {@code numBlocks} 1D blocks of 4 cells, container base. */
  static FieldStorage single(StateDescriptor pkg, int numBlocks) {
    Packages packages = new Packages();
    packages.add(pkg);
    return new FieldStorage(packages.resolve(), new BlockShape(4, 1, 1), null, numBlocks,
        List.of("base"));
  }
}
