package org.metope.kernels;

import org.metope.kernels.table.BlockLayout;
import org.metope.kernels.table.BoundaryOp;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.table.BoundaryTableBuilder;
import org.metope.kernels.table.IndexBox;

/**
 * A periodic uniform mesh of {@code nb^3} blocks of {@code nx^3} cells with {@code ng} ghost layers
 * in one data arena, and the two tables of its boundary exchange: every block sends to all 26
 * neighbours (load table) and receives from them (unload table), each pair sharing one buffer
 * slice. Blocks and fields are back to back, field-major: field f of block g is at
 * {@code (f * blocks + g) * blockSize}.
 */
final class UniformExchange {
  final int nb;
  final int nx;
  final int ng;
  final int fields;
  final int n;
  final BoundaryTable send;
  final BoundaryTable receive;
  final double[] data;
  final double[] buffers;

  UniformExchange(int nb, int nx, int ng, int fields) {
    this.nb = nb;
    this.nx = nx;
    this.ng = ng;
    this.fields = fields;
    this.n = nx + 2 * ng;
    int blocks = nb * nb * nb;
    BoundaryTableBuilder sends = new BoundaryTableBuilder();
    BoundaryTableBuilder receives = new BoundaryTableBuilder();
    int bufferCursor = 0;
    for (int f = 0; f < fields; f++) {
      for (int g = 0; g < blocks; g++) {
        for (int element = 0; element < 27; element++) {
          int ox = element % 3 - 1;
          int oy = element / 3 % 3 - 1;
          int oz = element / 9 - 1;
          if (ox == 0 && oy == 0 && oz == 0) {
            continue;
          }
          int neighbour = neighbour(g, ox, oy, oz);
          IndexBox interior = new IndexBox(sendStart(ox), sendStart(ox) + width(ox) - 1,
              sendStart(oy), sendStart(oy) + width(oy) - 1, sendStart(oz),
              sendStart(oz) + width(oz) - 1);
          IndexBox ghosts = new IndexBox(ghostStart(-ox), ghostStart(-ox) + width(ox) - 1,
              ghostStart(-oy), ghostStart(-oy) + width(oy) - 1, ghostStart(-oz),
              ghostStart(-oz) + width(oz) - 1);
          sends.add(BoundaryOp.COPY, 3, layout(f, g), interior, bufferCursor);
          receives.add(BoundaryOp.COPY, 3, layout(f, neighbour), ghosts, bufferCursor);
          bufferCursor += interior.cells();
        }
      }
    }
    this.send = sends.build();
    this.receive = receives.build();
    this.data = new double[fields * blocks * n * n * n];
    this.buffers = new double[bufferCursor];
  }

  /** Field f of block g. */
  BlockLayout layout(int f, int g) {
    return new BlockLayout((f * nb * nb * nb + g) * n * n * n, 1, n, n, n);
  }

  /** Block at periodic offset (ox, oy, oz) from block g. */
  int neighbour(int g, int ox, int oy, int oz) {
    int bx = Math.floorMod(g % nb + ox, nb);
    int by = Math.floorMod(g / nb % nb + oy, nb);
    int bz = Math.floorMod(g / (nb * nb) + oz, nb);
    return (bz * nb + by) * nb + bx;
  }

  /** A value that identifies a global cell of field f uniquely. */
  double value(int f, int gx, int gy, int gz) {
    int cells = nb * nx;
    return f * 1e9 + (Math.floorMod(gz, cells) * cells + Math.floorMod(gy, cells)) * cells
        + Math.floorMod(gx, cells);
  }

  /** Fills every interior cell with {@link #value} and every ghost cell with NaN. */
  void fillInteriors() {
    java.util.Arrays.fill(data, Double.NaN);
    for (int f = 0; f < fields; f++) {
      for (int g = 0; g < nb * nb * nb; g++) {
        BlockLayout layout = layout(f, g);
        for (int k = ng; k < ng + nx; k++) {
          for (int j = ng; j < ng + nx; j++) {
            for (int i = ng; i < ng + nx; i++) {
              data[layout.index(0, k, j, i)] = value(f, globalIndex(g % nb, i),
                  globalIndex(g / nb % nb, j), globalIndex(g / (nb * nb), k));
            }
          }
        }
      }
    }
  }

  /** Counts cells, ghosts included, that do not hold the value of their global position. */
  int wrongCells() {
    int wrong = 0;
    for (int f = 0; f < fields; f++) {
      for (int g = 0; g < nb * nb * nb; g++) {
        BlockLayout layout = layout(f, g);
        for (int k = 0; k < n; k++) {
          for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
              double expected = value(f, globalIndex(g % nb, i), globalIndex(g / nb % nb, j),
                  globalIndex(g / (nb * nb), k));
              if (data[layout.index(0, k, j, i)] != expected) {
                wrong++;
              }
            }
          }
        }
      }
    }
    return wrong;
  }

  private int globalIndex(int block, int local) {
    return block * nx + local - ng;
  }

  private int sendStart(int offset) {
    return offset < 0 ? ng : offset == 0 ? ng : nx;
  }

  private int ghostStart(int offset) {
    return offset < 0 ? 0 : offset == 0 ? ng : ng + nx;
  }

  private int width(int offset) {
    return offset == 0 ? nx : ng;
  }
}
