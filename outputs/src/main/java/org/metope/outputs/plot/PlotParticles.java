package org.metope.outputs.plot;

import io.jhdf.api.Dataset;
import java.util.Arrays;
import org.metope.mesh.input.InputError;

/**
 * The particles of one swarm of a {@code .phdf} file that a plot shows, as coordinates in its
 * plane: read from Parthenon's swarm layout ({@code /<swarm>/counts}, {@code offsets} and {@code
 * SwarmVars/swarm.x, swarm.y, swarm.z}), those of the blocks the slice cuts whose normal
 * coordinate lies in the slab of cells the slice shows ({@link PlotSlice}). In a 2D file that is
 * every particle.
 */
public record PlotParticles(String swarm, double[] h, double[] v) {

  /**
   * The particles of {@code swarm} in {@code slice}.
   *
   * @throws InputError when the file has no such swarm or its datasets do not match
   */
  public static PlotParticles of(PhdfFile file, String swarm, PlotSlice slice) {
    if (!file.has(swarm + "/counts")) {
      throw InputError.at("command line", "--particles " + swarm,
          "a swarm of " + file.path() + " (a group with counts and SwarmVars)");
    }
    int[] counts = PhdfFile.ints(file.dataset(swarm + "/counts").getDataFlat());
    int[] offsets = PhdfFile.ints(file.dataset(swarm + "/offsets").getDataFlat());
    if (counts.length != file.numBlocks() || offsets.length != file.numBlocks()) {
      throw file.broken("/" + swarm + "/counts does not hold " + file.numBlocks() + " blocks");
    }
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    double[][] x = new double[3][];
    String[] names = {"swarm.x", "swarm.y", "swarm.z"};
    for (int axis = 0; axis < 3; axis++) {
      x[axis] = total == 0 ? new double[0] : positions(file, swarm, names[axis], total);
    }
    int normal = slice.normal();
    double[] h = new double[total];
    double[] v = new double[total];
    int shown = 0;
    for (PlotSlice.Patch patch : slice.patches()) {
      int b = patch.block();
      double bmin = file.blockMin(b, normal);
      double bmax = file.blockMax(b, normal);
      int n = file.blockCells(normal);
      int cell = PlotSlice.slab(slice.value(), bmin, bmax, n);
      for (int p = offsets[b]; p < offsets[b] + counts[b]; p++) {
        if (PlotSlice.slab(x[normal][p], bmin, bmax, n) == cell) {
          h[shown] = x[slice.horizontalAxis()][p];
          v[shown] = x[slice.verticalAxis()][p];
          shown++;
        }
      }
    }
    return new PlotParticles(swarm, Arrays.copyOf(h, shown),
        Arrays.copyOf(v, shown));
  }

  /** How many particles the plot shows. */
  public int count() {
    return h.length;
  }

  private static double[] positions(PhdfFile file, String swarm, String name, int total) {
    Dataset data = file.dataset(swarm + "/SwarmVars/" + name);
    double[] values = PhdfFile.doubles(data.getDataFlat());
    if (values.length != total) {
      throw file.broken("/" + swarm + "/SwarmVars/" + name + " holds " + values.length
          + " values, its counts " + total);
    }
    return values;
  }
}
