package org.metope.outputs;

import io.jhdf.api.Dataset;
import java.util.Arrays;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmVariable;
import org.metope.mesh.input.InputError;

/**
 * Reads a restart file's particles back into this rank's blocks (the swarm part of Parthenon's
 * {@code RestartReaderHDF5}): for each swarm a restart carries ({@link OutputSwarms#forRestart}),
 * {@code <swarm>/counts} and {@code offsets} say which particles are this rank's, and each
 * variable of {@code <swarm>/SwarmVars} gives their values, read as one slice per variable.
 */
final class SwarmRestart {
  private SwarmRestart() {}

  static void restore(RestartFile file, Mesh mesh) {
    int first = mesh.distribution().firstGid(mesh.myRank());
    int nblocks = mesh.blocks().size();
    for (OutputSwarms.Selected sel : OutputSwarms.forRestart(mesh.swarms()).selected()) {
      String name = sel.swarm();
      if (file.optionalDataset(name + "/counts") == null) {
        throw file.mismatch("it has no swarm " + name);
      }
      long[] counts = RestartFile.longArray(file.dataset(name + "/counts"));
      long[] offsets = RestartFile.longArray(file.dataset(name + "/offsets"));
      if (counts.length != mesh.totalBlocks() || offsets.length != counts.length) {
        throw file.mismatch("swarm " + name + " has counts for " + counts.length
            + " blocks, the mesh has " + mesh.totalBlocks());
      }
      long total = 0;
      for (long c : counts) {
        total += c;
      }
      if (nblocks == 0 || total == 0) {
        continue;
      }
      long start = offsets[first];
      int mine = 0;
      for (int b = 0; b < nblocks; b++) {
        mine += (int) counts[first + b];
      }
      double[][] values = new double[sel.variables().size()][];
      for (int v = 0; v < values.length; v++) {
        values[v] = readSlice(file, name, sel.variables().get(v), Math.toIntExact(total), start,
            mine);
      }
      int particle = 0;
      for (int b = 0; b < nblocks; b++) {
        Swarm swarm = mesh.swarms().swarm(b, sel.index());
        int count = (int) counts[first + b];
        swarm.addEmptyParticles(count);
        for (int p = 0; p < count; p++, particle++) {
          int slot = swarm.newSlot(p);
          put(swarm, slot, sel.variables(), values, particle, mine);
          requireInside(file, mesh, b, swarm, slot, p);
        }
      }
    }
  }

  /**
   * Refuses a particle whose position is not finite or lies outside its block on the active axes
   * (the exchange's rule, {@code min <= x < max}): a run leaves every particle in its block after
   * its exchange, so only a damaged file has one elsewhere, which the next exchange could not
   * place (NaN lies in no block).
   */
  private static void requireInside(RestartFile file, Mesh mesh, int lid, Swarm swarm, int slot,
      int p) {
    RegionSize region = mesh.blocks().get(lid).region();
    double[] x = new double[3];
    boolean inside = true;
    for (int axis = 0; axis < 3; axis++) {
      x[axis] = swarm.real(swarm.layout().variable(
          SwarmLayout.POSITIONS.get(axis)).firstComponent())[slot];
      if (axis < mesh.config().ndim()) {
        inside &= x[axis] >= region.xmin(axis) && x[axis] < region.xmax(axis);
      }
    }
    if (!inside) {
      StringBuilder box = new StringBuilder();
      for (int axis = 0; axis < mesh.config().ndim(); axis++) {
        box.append(axis == 0 ? "" : " x ").append('[').append(region.xmin(axis)).append(", ")
            .append(region.xmax(axis)).append(')');
      }
      throw InputError.at(file.path().toString(), "cannot restore swarm "
          + swarm.layout().name() + ": particle " + p + " of block gid "
          + mesh.blocks().get(lid).gid() + " is at " + Arrays.toString(x) + ", outside the block "
          + box, "finite positions inside their blocks, as a run leaves its particles");
    }
  }

  /** Particles {@code [start, start + count)} of one variable, laid out {@code [component][p]}. */
  private static double[] readSlice(RestartFile file, String swarm, SwarmVariable v, int total,
      long start, int count) {
    String path = swarm + "/SwarmVars/" + v.name();
    if (file.optionalDataset(path) == null) {
      throw file.mismatch("swarm " + swarm + " has no variable " + v.name());
    }
    Dataset d = file.dataset(path);
    int[] expected = OutputSwarms.dimensions(v, total);
    if (!Arrays.equals(d.getDimensions(), expected)) {
      throw file.mismatch("swarm variable " + path + " has dimensions "
          + Arrays.toString(d.getDimensions()) + ", the run needs " + Arrays.toString(expected));
    }
    double[] out = new double[v.components() * count];
    if (count == 0) {
      return out;
    }
    long[] offset = new long[expected.length];
    offset[expected.length - 1] = start;
    int[] size = expected.clone();
    size[expected.length - 1] = count;
    RestartFile.flatten(d.getData(offset, size), out, 0);
    return out;
  }

  private static void put(Swarm swarm, int n, List<SwarmVariable> variables, double[][] values,
      int particle, int count) {
    for (int v = 0; v < variables.size(); v++) {
      SwarmVariable var = variables.get(v);
      for (int c = 0; c < var.components(); c++) {
        double value = values[v][c * count + particle];
        int at = var.firstComponent() + c;
        if (var.integer()) {
          swarm.integer(at)[n] = (int) value;
        } else {
          swarm.real(at)[n] = value;
        }
      }
    }
  }
}
