package org.metope.mesh.field;

import java.util.Arrays;

/**
 * Enumerates the instances of an {@link ArenaLayout} in its documented order, with their extents
 * and the lookup tables from (field, container or direction) to instance. Used once per layout.
 */
final class InstanceTable {
  int count;
  int[] field = new int[16];
  int[] kind = new int[16];
  int[] container = new int[16];
  int[] ncomp = new int[16];
  int[] elements = new int[16];
  int[] ni = new int[16];
  int[] nj = new int[16];
  int[] nk = new int[16];
  int[] blockLength = new int[16];
  final int[] dataInstance;
  final int[] fluxInstance;
  final int[] coarseInstance;
  private final int numFields;

  InstanceTable(ResolvedState state, BlockShape cells, BlockShape coarse, BlockShape fine,
      int numContainers, int fluxDirections) {
    numFields = state.numFields();
    dataInstance = new int[numContainers * numFields];
    fluxInstance = new int[numFields * 3];
    coarseInstance = new int[numFields];
    Arrays.fill(fluxInstance, -1);
    Arrays.fill(coarseInstance, -1);
    for (int c = 0; c < numContainers; c++) {
      for (FieldInfo f : state.fields()) {
        Metadata m = f.metadata();
        boolean own = c == 0 || m.hasStageCopies();
        dataInstance[c * numFields + f.id()] = own
            ? add(f, ArenaLayout.DATA, m.hasStageCopies() ? c : -1,
                extents(m, ownCells(f, cells, fine)))
            : dataInstance[f.id()];
      }
    }
    for (FieldInfo f : state.fields()) {
      if (f.metadata().isSet(MetadataFlag.WITH_FLUXES)
          && f.metadata().topology() == MetadataFlag.FACE) {
        // Edge fluxes E1..E3: the face field's shape, one instance for every direction.
        int edges = add(f, ArenaLayout.FLUX_X1, -1, extents(f.metadata(), cells));
        Arrays.fill(fluxInstance, f.id() * 3, f.id() * 3 + 3, edges);
      } else if (f.metadata().isSet(MetadataFlag.WITH_FLUXES)) {
        for (int d = 1; d <= fluxDirections; d++) {
          fluxInstance[f.id() * 3 + d - 1] = add(f, d, -1, ownCells(f, cells, fine));
        }
      }
    }
    if (coarse != null) {
      for (FieldInfo f : state.fields()) {
        if (f.metadata().isMeshTied() && f.metadata().isRefined()) {
          coarseInstance[f.id()] = add(f, ArenaLayout.COARSE, -1,
              extents(f.metadata(), f.metadata().isFine() ? cells : coarse));
        }
      }
    }
  }

  /**
   * The cells a field's values and fluxes live on: {@code fine} for a {@code FINE} field (its
   * coarse buffer is the block's own cells), else {@code cells}.
   */
  private static BlockShape ownCells(FieldInfo f, BlockShape cells, BlockShape fine) {
    if (!f.metadata().isFine()) {
      return cells;
    }
    if (fine == null) {
      throw new IllegalArgumentException("field=" + f.name() + " is FINE, but the storage was"
          + " built without the fine extents");
    }
    return fine;
  }

  /**
   * The extents of one element of a field with metadata {@code m} on blocks of {@code cells}:
   * the cells, one more index along every direction in use for face, edge and node fields (as
   * Parthenon allocates them, whichever element), one value for fields without topology.
   */
  private static BlockShape extents(Metadata m, BlockShape cells) {
    if (!m.isMeshTied()) {
      return new BlockShape(1, 1, 1);
    }
    if (m.topology() == MetadataFlag.CELL) {
      return cells;
    }
    return new BlockShape(cells.ni() + 1, cells.nj() > 1 ? cells.nj() + 1 : 1,
        cells.nk() > 1 ? cells.nk() + 1 : 1);
  }

  private int add(FieldInfo f, int instanceKind, int instanceContainer, BlockShape shape) {
    if (count == field.length) {
      int n = count * 2;
      field = Arrays.copyOf(field, n);
      kind = Arrays.copyOf(kind, n);
      container = Arrays.copyOf(container, n);
      ncomp = Arrays.copyOf(ncomp, n);
      elements = Arrays.copyOf(elements, n);
      ni = Arrays.copyOf(ni, n);
      nj = Arrays.copyOf(nj, n);
      nk = Arrays.copyOf(nk, n);
      blockLength = Arrays.copyOf(blockLength, n);
    }
    int numElements = f.metadata().elements().size();
    long length = (long) numElements * f.numComponents() * shape.cells();
    if (length > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("field=" + f.name() + " block length=" + length
          + " is too large for the arena");
    }
    field[count] = f.id();
    kind[count] = instanceKind;
    container[count] = instanceContainer;
    ncomp[count] = f.numComponents();
    elements[count] = numElements;
    ni[count] = shape.ni();
    nj[count] = shape.nj();
    nk[count] = shape.nk();
    blockLength[count] = (int) length;
    return count++;
  }

  /** The instances of each field in id order. */
  int[][] instancesOfField() {
    int[] perField = new int[numFields];
    for (int inst = 0; inst < count; inst++) {
      perField[field[inst]]++;
    }
    int[][] result = new int[numFields][];
    for (int f = 0; f < numFields; f++) {
      result[f] = new int[perField[f]];
      perField[f] = 0;
    }
    for (int inst = 0; inst < count; inst++) {
      int f = field[inst];
      result[f][perField[f]++] = inst;
    }
    return result;
  }
}
