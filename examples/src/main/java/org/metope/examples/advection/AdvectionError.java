package org.metope.examples.advection;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.metope.mesh.Mesh;
import org.metope.comm.GlobalOrderSum;
import org.metope.comm.ReduceOp;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.RegionSize;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.IndexBox;
import org.metope.outputs.AtomicFile;
import org.metope.outputs.PrintfFormat;

/**
 * {@code <Advection> compute_error = true}: the error of component 0 of {@code advected} against
 * the initial profile at the end of the run (Parthenon's {@code UserWorkAfterLoop}), appended all
 * or nothing to {@code advection-errors.dat} in the output directory, with a header when the file
 * is new:
 *
 * <pre>
 * # Nx1  Nx2  Nx3  Ncycle  L1 max_error/L1  max_error
 * 64  64  64  20  1.234567e-03   5.678901e+00  7.009870e-03
 * </pre>
 *
 * L1 is the volume-weighted sum of absolute errors over the interior cells divided by the domain's
 * volume. The {@code block} profile has no reference solution; its reference is 1e9, as in
 * Parthenon. Per-block sums are added in global block order, so the file is the same on any
 * number of ranks.
 */
final class AdvectionError {
  static final String FILE = "advection-errors.dat";

  private AdvectionError() {}

  static void write(Mesh mesh, AdvectionProblem problem, SimTime tm, Path directory) {
    int nblocks = mesh.blocks().size();
    double[] l1 = new double[nblocks];
    int[] gids = new int[nblocks];
    double maxErr = 0.0;
    int lb = 0;
    for (MeshData md : mesh.meshData("base")) {
      FieldView q = FieldView.of(md, "advected");
      for (int b = 0; b < md.numBlocks(); b++, lb++) {
        gids[lb] = md.block(b).gid();
        UniformCartesian coords = md.block(b).coords();
        IndexBox cells = IndexBox.of(md.block(b).cellBounds(), IndexDomain.INTERIOR);
        double vol = coords.cellVolume();
        double sum = 0.0;
        for (int k = cells.k().s(); k <= cells.k().e(); k++) {
          for (int j = cells.j().s(); j <= cells.j().e(); j++) {
            for (int i = cells.i().s(); i <= cells.i().e(); i++) {
              double ref = problem.isBlockProfile() ? 1e9 : problem.value(coords, k, j, i);
              double err = Math.abs(ref - q.get(b, 0, k, j, i));
              sum += err * vol;
              maxErr = Math.max(err, maxErr);
            }
          }
        }
        l1[lb] = sum;
      }
    }
    double l1Err = GlobalOrderSum.sumInGlobalBlockOrder(mesh.communicator(), gids, l1, 1)[0];
    maxErr = mesh.communicator().allreduce(maxErr, ReduceOp.MAX);
    if (mesh.myRank() != 0) {
      return;
    }
    RegionSize size = mesh.meshSize();
    double domain = (size.xmax(0) - size.xmin(0)) * (size.xmax(1) - size.xmin(1))
        * (size.xmax(2) - size.xmin(2));
    l1Err /= domain;
    // C++'s std::max(0.0, x), which gives 0 for x = NaN (no error at all: 0 / 0).
    double ratio = maxErr / l1Err;
    double maxOverL1 = 0.0 < ratio ? ratio : 0.0;
    append(directory.resolve(FILE), size.nx(0) + "  " + size.nx(1) + "  " + size.nx(2) + "  "
        + tm.ncycle() + "  " + e(l1Err) + "   " + e(maxOverL1) + "  " + e(maxErr) + "  \n");
  }

  private static String e(double value) {
    return PrintfFormat.parse("%e").format(value);
  }

  /** Appends the line, with the header when the file is new, all or nothing. */
  private static void append(Path file, String line) {
    String text = Files.exists(file) ? line
        : "# Nx1  Nx2  Nx3  Ncycle  L1 max_error/L1  max_error \n" + line;
    AtomicFile.append(file, "error file", text.getBytes(StandardCharsets.UTF_8));
  }
}
