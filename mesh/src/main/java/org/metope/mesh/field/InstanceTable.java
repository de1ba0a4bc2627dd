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
  int[] ni = new int[16];
  int[] nj = new int[16];
  int[] nk = new int[16];
  int[] blockLength = new int[16];
  final int[] dataInstance;
  final int[] fluxInstance;
  final int[] coarseInstance;
  private final int numFields;

  InstanceTable(ResolvedState state, BlockShape cells, BlockShape coarse, int numContainers,
      int fluxDirections) {
    numFields = state.numFields();
    dataInstance = new int[numContainers * numFields];
    fluxInstance = new int[numFields * 3];
    coarseInstance = new int[numFields];
    Arrays.fill(fluxInstance, -1);
    Arrays.fill(coarseInstance, -1);
    for (int c = 0; c < numContainers; c++) {
      for (FieldInfo f : state.fields()) {
        Metadata m = checkedMetadata(f);
        boolean own = c == 0 || m.hasStageCopies();
        dataInstance[c * numFields + f.id()] = own
            ? add(f, ArenaLayout.DATA, m.hasStageCopies() ? c : -1, extents(m, cells))
            : dataInstance[f.id()];
      }
    }
    for (FieldInfo f : state.fields()) {
      if (f.metadata().isSet(MetadataFlag.WITH_FLUXES)) {
        for (int d = 1; d <= fluxDirections; d++) {
          fluxInstance[f.id() * 3 + d - 1] = add(f, d, -1, cells);
        }
      }
    }
    if (coarse != null) {
      for (FieldInfo f : state.fields()) {
        if (f.metadata().isMeshTied() && f.metadata().isRefined()) {
          coarseInstance[f.id()] = add(f, ArenaLayout.COARSE, -1, coarse);
        }
      }
    }
  }

  private static Metadata checkedMetadata(FieldInfo f) {
    Metadata m = f.metadata();
    MetadataFlag topology = m.topology();
    if (topology != MetadataFlag.CELL && topology != MetadataFlag.NONE) {
      throw new IllegalArgumentException("field=" + f.name() + " topology=" + topology
          + ": field storage supports CELL and NONE topologies");
    }
    return m;
  }

  private static BlockShape extents(Metadata m, BlockShape cells) {
    return m.isMeshTied() ? cells : new BlockShape(1, 1, 1);
  }

  private int add(FieldInfo f, int instanceKind, int instanceContainer, BlockShape shape) {
    if (count == field.length) {
      int n = count * 2;
      field = Arrays.copyOf(field, n);
      kind = Arrays.copyOf(kind, n);
      container = Arrays.copyOf(container, n);
      ncomp = Arrays.copyOf(ncomp, n);
      ni = Arrays.copyOf(ni, n);
      nj = Arrays.copyOf(nj, n);
      nk = Arrays.copyOf(nk, n);
      blockLength = Arrays.copyOf(blockLength, n);
    }
    long length = (long) f.numComponents() * shape.cells();
    if (length > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("field=" + f.name() + " block length=" + length
          + " is too large for the arena");
    }
    field[count] = f.id();
    kind[count] = instanceKind;
    container[count] = instanceContainer;
    ncomp[count] = f.numComponents();
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
