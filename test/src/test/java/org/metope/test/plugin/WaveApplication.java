package org.metope.test.plugin;

import java.util.List;
import org.metope.app.Application;
import org.metope.app.Simulation;
import org.metope.driver.Driver;
import org.metope.driver.FluxDriver;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.Params;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;

/**
 * A small application as a user would write one against module {@code app}: one field {@code u}
 * carried along x1 at speed {@code v} by donor-cell fluxes, with an optional decay source {@code
 * du/dt = -decay u}, run by the default {@link FluxDriver}. The plug-in tests compile this file
 * into a jar of its own and run it through {@code ./metope -cp}; the flux driver tests run it in
 * process.
 *
 * <p>{@code <wave>} keys: {@code v} (1), {@code cfl} (0.5), {@code decay} (0), {@code profile}
 * ({@code sine}: {@code 1 + 0.5 sin(2 pi x1)}, or {@code uniform}: 1), {@code stage_update}
 * ({@code low_storage} or {@code advection_example}). History: {@code total_u}, the integral of
 * {@code u}.
 */
public final class WaveApplication implements Application {
  /** The package label and deck block. */
  public static final String NAME = "wave";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String deckBlock() {
    return NAME;
  }

  @Override
  public String description() {
    return "test plug-in: donor-cell advection of u along x1 with decay";
  }

  @Override
  public Packages processPackages(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    double cfl = pin.getOrAddReal(NAME, "cfl", 0.5);
    if (!(cfl > 0.0)) {
      throw pin.error(NAME, "cfl", "a positive Courant number");
    }
    pkg.addParam("cfl", cfl);
    pkg.addParam("v", pin.getOrAddReal(NAME, "v", 1.0));
    pkg.addParam("profile", pin.getOrAddString(NAME, "profile", "sine",
        List.of("sine", "uniform")));
    pkg.addParam("stage_update", pin.getOrAddString(NAME, "stage_update", "low_storage",
        List.of("low_storage", "advection_example")));
    double decay = pin.getOrAddReal(NAME, "decay", 0.0);
    pkg.addParam("decay", decay);
    pkg.addField("u", Metadata.builder(MetadataFlag.CELL, MetadataFlag.INDEPENDENT,
        MetadataFlag.WITH_FLUXES, MetadataFlag.FILL_GHOST).build());
    pkg.setCalculateFluxes(WaveApplication::calculateFluxes);
    if (decay != 0.0) {
      pkg.setSourceTerm(WaveApplication::decay);
    }
    pkg.setEstimateTimestep(WaveApplication::estimateTimestep);
    pkg.addHistoryOutput(HistoryOutput.of(HistoryOutput.Operation.SUM, "total_u",
        WaveApplication::integral));
    Packages packages = new Packages();
    packages.add(pkg);
    return packages;
  }

  @Override
  public ProblemGenerator problemGenerator(Packages packages) {
    boolean sine = packages.get(NAME).params().getString("profile").equals("sine");
    return (md, b) -> {
      int u = md.state().fieldId("u");
      UniformCartesian x = md.block(b).coords();
      IndexShape cells = md.block(b).cellBounds();
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          for (int i = start(cells, 0); i <= end(cells, 0); i++) {
            md.data()[md.index(u, b, 0, k, j, i)] =
                sine ? 1.0 + 0.5 * StrictMath.sin(2.0 * Math.PI * x.xc(0, i)) : 1.0;
          }
        }
      }
    };
  }

  @Override
  public Driver makeDriver(Simulation sim) {
    boolean parthenon = sim.mesh().packages().get(NAME).params().getString("stage_update")
        .equals("advection_example");
    return sim.fluxDriver(parthenon ? FluxDriver.StageUpdate.ADVECTION_EXAMPLE
        : FluxDriver.StageUpdate.LOW_STORAGE, this);
  }

  private static Params params(MeshData md) {
    return md.block(0).mesh().packages().get(NAME).params();
  }

  /** Donor-cell fluxes through the x1 faces of the interior cells. */
  static void calculateFluxes(MeshData md, int[] fields) {
    if (md.numBlocks() == 0) {
      return;
    }
    double v = params(md).getDouble("v");
    double[] a = md.data();
    for (int f : fields) {
      for (int b = 0; b < md.numBlocks(); b++) {
        int q = md.dataOffset(f, b);
        int flux = md.fluxOffset(f, 1, b);
        IndexShape cells = md.block(b).cellBounds();
        for (int k = start(cells, 2); k <= end(cells, 2); k++) {
          for (int j = start(cells, 1); j <= end(cells, 1); j++) {
            for (int i = start(cells, 0); i <= end(cells, 0) + 1; i++) {
              int n = md.index(f, b, 0, k, j, i) - q;
              a[flux + n] = v * (v > 0.0 ? a[q + n - 1] : a[q + n]);
            }
          }
        }
      }
    }
  }

  /** {@code dudt -= decay u} on the interior. */
  static void decay(MeshData in, MeshData dudt) {
    if (in.numBlocks() == 0) {
      return;
    }
    double decay = params(in).getDouble("decay");
    int u = in.state().fieldId("u");
    double[] a = in.data();
    for (int b = 0; b < in.numBlocks(); b++) {
      IndexShape cells = in.block(b).cellBounds();
      for (int k = start(cells, 2); k <= end(cells, 2); k++) {
        for (int j = start(cells, 1); j <= end(cells, 1); j++) {
          for (int i = start(cells, 0); i <= end(cells, 0); i++) {
            a[dudt.index(u, b, 0, k, j, i)] -= decay * a[in.index(u, b, 0, k, j, i)];
          }
        }
      }
    }
  }

  static double estimateTimestep(MeshData md) {
    if (md.numBlocks() == 0) {
      return Double.MAX_VALUE;
    }
    double v = Math.abs(params(md).getDouble("v"));
    return v == 0.0 ? Double.MAX_VALUE
        : params(md).getDouble("cfl") * md.block(0).coords().dx(0) / v;
  }

  /** The integral of {@code u} over block {@code b}. */
  static double integral(MeshData md, int b) {
    int u = md.state().fieldId("u");
    UniformCartesian x = md.block(b).coords();
    IndexShape cells = md.block(b).cellBounds();
    double volume = x.dx(0) * x.dx(1) * x.dx(2);
    double sum = 0.0;
    for (int k = start(cells, 2); k <= end(cells, 2); k++) {
      for (int j = start(cells, 1); j <= end(cells, 1); j++) {
        for (int i = start(cells, 0); i <= end(cells, 0); i++) {
          sum += md.data()[md.index(u, b, 0, k, j, i)] * volume;
        }
      }
    }
    return sum;
  }

  private static int start(IndexShape cells, int axis) {
    return cells.start(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }

  private static int end(IndexShape cells, int axis) {
    return cells.end(axis, IndexDomain.INTERIOR, TopologicalElement.CC);
  }
}
