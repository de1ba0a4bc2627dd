package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.metope.mesh.geometry.IndexDomain.INTERIOR;
import static org.metope.mesh.geometry.TopologicalElement.CC;

import io.jhdf.HdfFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.app.ForwardingApplication;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.driver.ProblemGenerator;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.UniformCartesian;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.FieldView;
import org.metope.outputs.RestartFile;

/**
 * A {@code FINE} field through a whole adaptive run: Parthenon's adaptive 2D advection deck with a
 * second package whose {@code phi_fine} (FINE, independent, filled in ghosts, no fluxes, so the
 * stage update keeps it) starts as a smooth periodic function. The mesh refines and merges as
 * the advected sphere moves; restriction and min-mod prolongation both keep a block's volume
 * integral, so the integral of {@code phi_fine} over the domain stays what it was to round-off,
 * on one and two ranks, and a run resumed from a restart file written between remeshes ends
 * with the same {@code phi_fine} and blocks, bit for bit, as the run never interrupted.
 */
class FineFieldRunTest {
  @TempDir Path dir;

  private static final String[] OVERRIDES = {"parthenon/time/tlim=0.2",
      "parthenon/output0/dt=-1", "parthenon/output1/dt=0.1",
      "parthenon/output2/file_type=hdf5", "parthenon/output2/dt=1",
      "parthenon/output2/variables=phi_fine"};

  private static Path deck() {
    try {
      return Path.of(FineFieldRunTest.class.getResource("/parthenon/amr2d/parthinput.advection")
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Advection with package {@code fine} beside it, whose field the generator sets too. */
  private static final class WithFineField extends ForwardingApplication {
    WithFineField() {
      super(new AdvectionApplication());
    }

    @Override
    public Packages processPackages(ParameterInput pin) {
      Packages packages = super.processPackages(pin);
      StateDescriptor fine = new StateDescriptor("fine");
      fine.addField("phi_fine", Metadata.of(Metadata.CELL, Metadata.FINE, Metadata.INDEPENDENT,
          Metadata.FILL_GHOST));
      packages.add(fine);
      return packages;
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      ProblemGenerator advection = super.problemGenerator(packages);
      return (md, b) -> {
        advection.generate(md, b);
        FieldView phi = FieldView.of(md, "phi_fine");
        MeshBlock block = md.block(b);
        UniformCartesian x = block.fineCoords();
        IndexShape shape = block.fineCellBounds();
        for (int j = shape.start(1, INTERIOR, CC); j <= shape.end(1, INTERIOR, CC); j++) {
          for (int i = shape.start(0, INTERIOR, CC); i <= shape.end(0, INTERIOR, CC); i++) {
            phi.set(b, 0, 0, j, i, 2 + Math.sin(2 * Math.PI * x.x1c(i))
                * Math.cos(2 * Math.PI * x.x2c(j)) + 0.5 * Math.sin(2 * Math.PI * x.x2c(j)));
          }
        }
      };
    }
  }

  /**
   * The integral of phi_fine in an output file: each block's 32 x 32 fine cells of the unit
   * square's 4 x 4 root blocks of 16 cells, halved in width per level.
   */
  private static double integral(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      double[] phi = (double[]) h5.getDatasetByPath("phi_fine").getDataFlat();
      long[] levels = (long[]) h5.getDatasetByPath("Levels").getDataFlat();
      double sum = 0;
      for (int b = 0; b < levels.length; b++) {
        double dx = 1.0 / (4 * 32 * (1L << levels[b]));
        double block = 0;
        for (int c = 0; c < 32 * 32; c++) {
          block += phi[b * 32 * 32 + c];
        }
        sum += block * dx * dx;
      }
      return sum;
    }
  }

  private static Mesh run(ParameterInput pin, Path out, Communicator comm, RestartFile rst) {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    ApplicationRunner.Launch launch = rst == null
        ? new ApplicationRunner.Launch(pin, RunOptions.of(out, quiet), quiet, comm,
            InOneBoundaryCommunication::fromInput)
        : new ApplicationRunner.Launch(pin, new RunOptions(out, Long.MAX_VALUE, quiet, true),
            quiet, comm, InOneBoundaryCommunication::fromInput, rst);
    return ApplicationRunner.simulate(new WithFineField(), launch).mesh();
  }

  private static double[] phiFine(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      return (double[]) h5.getDatasetByPath("phi_fine").getDataFlat();
    }
  }

  private static long[] locations(Path file) {
    try (HdfFile h5 = new HdfFile(file)) {
      return (long[]) h5.getDatasetByPath("LogicalLocations").getDataFlat();
    }
  }

  @Test
  void givenAnAdaptiveRun_thenTheFineIntegralStaysAndARestartEndsBitIdentical()
      throws Exception {
    Path[] dirs = new Path[2];
    for (int ranks = 1; ranks <= 2; ranks++) {
      Path whole = Files.createDirectory(dir.resolve("whole" + ranks));
      dirs[ranks - 1] = whole;
      InProcessRun.run(ranks, comm -> run(ParameterInput.load(deck(), List.of(OVERRIDES)),
          whole, comm, null));
    }
    Path start = dirs[0].resolve("advection.out2.00000.phdf");
    Path last = dirs[0].resolve("advection.out2.final.phdf");
    assertTrue(!java.util.Arrays.equals(locations(last), locations(start)),
        "the mesh changed during the run");
    double before = integral(start);
    assertEquals(2.0, before, 1e-3, "the generator's field");
    assertEquals(before, integral(last), 1e-13, "restriction and prolongation keep it");
    assertArrayEquals(phiFine(last), phiFine(dirs[1].resolve("advection.out2.final.phdf")),
        "one and two ranks");

    Path resumed = Files.createDirectory(dir.resolve("resumed"));
    Path file = dirs[0].resolve("advection.out1.00001.rhdf");
    InProcessRun.run(2, comm -> {
      try (RestartFile rst = RestartFile.open(file)) {
        ParameterInput pin = ParameterInput.parse(file.toString(), rst.deck(), List.of());
        run(pin, resumed, comm, rst);
      }
    });
    Path end = resumed.resolve("advection.out2.final.phdf");
    assertArrayEquals(locations(last), locations(end));
    assertArrayEquals(phiFine(last), phiFine(end), "resumed at t = 0.1");
  }
}
