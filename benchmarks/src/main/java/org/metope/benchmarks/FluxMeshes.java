package org.metope.benchmarks;

import java.util.List;
import java.util.SplittableRandom;
import org.metope.comm.InProcessCluster;
import org.metope.examples.advection.AdvectionPackage;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.FluxFunction;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.update.Update;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.view.FieldView;
import org.metope.mesh.view.FlatRange;
import org.metope.mesh.view.IndexBox;
import org.metope.mesh.view.ParFor;

/**
 * The data both flux kernels run on: a periodic mesh of {@code blocks} per active axis of {@code
 * cells}^d cells each carrying the advection package, one partition, every value of every field
 * (ghosts included) drawn from a seeded generator so that the inputs are the same on every run.
 */
public final class FluxMeshes {
  /** One partition of the mesh and the two kernels' inputs. */
  public record Case(Mesh mesh, MeshData md, int[] fluxFields, FluxFunction viewKernel) {}

  private FluxMeshes() {}

  /**
   * A case of {@code ndim} dimensions; {@code vConst} false makes the velocity the cell field
   * {@code v}, whose components have random signs when {@code mixedSigns} (every branch of the
   * kernel taken, for bit comparisons) and otherwise the signs of {@code (vx, vy, vz) = (1, -0.75,
   * 0.5)} with random magnitudes (a flow, whose branches a CPU predicts, for timings).
   */
  public static Case build(int ndim, int cells, int blocks, boolean vConst, boolean mixedSigns,
      long seed) {
    StringBuilder deck = new StringBuilder("<parthenon/mesh>\n");
    for (int axis = 1; axis <= 3; axis++) {
      boolean active = axis <= ndim;
      deck.append("nx").append(axis).append(" = ").append(active ? cells * blocks : 1)
          .append("\nx").append(axis).append("min = -0.5\nx").append(axis).append("max = 0.5\n")
          .append("ix").append(axis).append("_bc = periodic\nox").append(axis)
          .append("_bc = periodic\n");
    }
    deck.append("<parthenon/meshblock>\n");
    for (int axis = 1; axis <= ndim; axis++) {
      deck.append("nx").append(axis).append(" = ").append(cells).append('\n');
    }
    deck.append("<Advection>\nvx = 1.0\nvy = -0.75\nvz = 0.5\nvec_size = 2\nv_const = ")
        .append(vConst).append('\n');
    ParameterInput pin = ParameterInput.parse("bench.in", deck.toString(), List.of());
    Packages packages = new Packages();
    packages.add(AdvectionPackage.initialize(pin));
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin), InProcessCluster.singleRank());
    mesh.initializeFields(packages, List.of("base"));
    MeshData md = mesh.meshData("base").get(0);
    fill(md.data(), md.layout().end(), seed);
    if (!vConst && !mixedSigns) {
      FieldView v = FieldView.of(md, "v");
      double[] signs = {1.0, -1.0, 1.0};
      for (int b = 0; b < md.numBlocks(); b++) {
        for (int c = 0; c < 3; c++) {
          int from = v.offset(b) + c * v.componentStride();
          for (int n = from; n < from + v.componentStride(); n++) {
            md.data()[n] = signs[c] * Math.abs(md.data()[n]);
          }
        }
      }
    }
    int[] fluxFields = Update.fieldIds(mesh.resolvedPackages(), MetadataFlag.WITH_FLUXES,
        MetadataFlag.CELL);
    // The package's AdvectionFluxes, resolved by initializeFields.
    return new Case(mesh, md, fluxFields, packages.get(AdvectionPackage.NAME).calculateFluxes());
  }

  /**
   * Runs both kernels on every case {@code rounds} times, so that shared code (the views'
   * accessors, {@code ParFor}) has seen every caller before anything is measured, and calls
   * {@code ParFor.cells} and {@code ParFor.flat} with three more kernel classes each: in a run
   * many kernels share the loop helpers, so their call of a kernel's loop copy sees many classes
   * and the JIT compiles each copy on its own rather than into one caller (with one or two
   * classes it may inline the copy into its caller, where the kernel itself is then not always
   * inlined: alone on the cell loop, the field-velocity kernel measured 1.24 and 2.46 times the
   * hand-written one in two JVMs, and 1.05 and 1.09 with the copies kept out of their callers).
   */
  public static void warmUp(int rounds, Case... cases) {
    for (int n = 0; n < rounds; n++) {
      for (Case c : cases) {
        HandWrittenFluxes.calculateFluxes(c.md(), c.fluxFields());
        c.viewKernel().calculateFluxes(c.md(), c.fluxFields());
      }
      MeshData md = cases[0].md();
      double[] sum = new double[1];
      IndexBox box = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
      FlatRange range = FieldView.of(md, "advected").flatRange(box);
      ParFor.cells(md, box, (b, k, j, i) -> sum[0] += b);
      ParFor.cells(md, box, (b, k, j, i) -> sum[0] += k);
      ParFor.cells(md, box, (b, k, j, i) -> sum[0] += j);
      ParFor.flat(md, range, (b, c) -> sum[0] += b);
      ParFor.flat(md, range, (b, c) -> sum[0] += c);
      ParFor.flat(md, range, (b, c) -> sum[0] -= c);
    }
  }

  /** Values in [-1, 1) everywhere in use, fluxes included. */
  public static void fill(double[] a, int end, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int n = 0; n < end; n++) {
      a[n] = 2.0 * random.nextDouble() - 1.0;
    }
  }
}
