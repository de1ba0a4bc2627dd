package org.metope.examples.fineadvection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.driver.RunOptions;
import org.metope.examples.PhdfSamples;
import org.metope.mesh.input.ParameterInput;

/**
 * Parthenon's {@code fine_advection} deck as shipped (inputs/fine_advection.in: 64^2, blocks of
 * 16^2, three levels, rk2), run to {@code tlim = 0.25} (285 cycles, 16 remeshes), against
 * Parthenon's own final output (parthenon/fine_advection/README.md): the same blocks at the same
 * levels and locations, and every field of the output ({@code phi}, {@code phi_fine}, {@code
 * phi_fine_restricted}, {@code C_cc}, {@code D_cc}, {@code divC}, {@code divD}) to 1e-12 in every
 * block's extremes and sum of absolute values and every 128th cell. The divergence of {@code D},
 * a face field changed only by the circulation of its edge fluxes, stays at round-off. On 2 and 4
 * ranks (in-process ranks, the transport of MPJ multicore ranks) the output is the one-rank file's,
 * bit for bit.
 */
class FineAdvectionParthenonComparisonTest {
  private static final Path DECK = Path.of("../inputs/fine_advection.in");
  private static final String[] OVERRIDES = {"parthenon/time/tlim=0.25",
      "parthenon/output1/dt=-1", "parthenon/output0/variables=advection.phi,advection.phi_fine,"
          + "advection.phi_fine_restricted,advection.C_cc,advection.D_cc,advection.divC,"
          + "advection.divD"};
  private static final String FINAL = "advection.out0.final.phdf";

  @TempDir Path dir;

  private static Path reference(String name) {
    try {
      return Path.of(FineAdvectionParthenonComparisonTest.class
          .getResource("/parthenon/fine_advection/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void run(Path out, Communicator comm) {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    ParameterInput pin = ParameterInput.load(DECK, List.of(OVERRIDES));
    ApplicationRunner.simulate(new FineAdvectionApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(out, quiet), quiet, comm, InOneBoundaryCommunication::fromInput));
  }

  @Test
  void givenTheShippedDeckToAQuarter_thenParthenonsBlocksAndFieldsOnOneTwoAndFourRanks()
      throws IOException {
    Path one = Files.createDirectory(dir.resolve("one"));
    run(one, InProcessCluster.singleRank());
    Path ours = one.resolve(FINAL);
    PhdfSamples.assertSame(PhdfSamples.read(reference("final-samples.txt")),
        PhdfSamples.samples(ours, 128), 1e-12);
    try (HdfFile h5 = new HdfFile(ours)) {
      assertEquals(285, ((Number) h5.getByPath("Info").getAttribute("NCycle").getData())
          .intValue(), "Parthenon's cycles");
      assertEquals(112, h5.getDatasetByPath("Levels").getDimensions()[0], "Parthenon's blocks");
      double worst = 0;
      for (double v : values(h5, "advection.divD")) {
        worst = Math.max(worst, Math.abs(v));
      }
      assertTrue(worst < 1e-13, "div D: " + worst);
    }
    for (int ranks : new int[] {2, 4}) {
      Path many = Files.createDirectory(dir.resolve("ranks" + ranks));
      InProcessRun.run(ranks, comm -> run(many, comm));
      assertSameFile(ours, many.resolve(FINAL), ranks);
    }
  }

  /** Every field and block location of {@code theirs} equals {@code ours}, bit for bit. */
  private static void assertSameFile(Path ours, Path theirs, int ranks) {
    try (HdfFile a = new HdfFile(ours); HdfFile b = new HdfFile(theirs)) {
      for (String name : new String[] {"LogicalLocations", "Levels", "advection.phi",
          "advection.phi_fine", "advection.phi_fine_restricted", "advection.C_cc",
          "advection.D_cc", "advection.divC", "advection.divD"}) {
        assertArrayEquals(values(a, name), values(b, name), name + " on " + ranks + " ranks");
      }
    }
  }

  private static double[] values(HdfFile h5, String name) {
    Object flat = h5.getDatasetByPath(name).getDataFlat();
    double[] out = new double[Array.getLength(flat)];
    for (int n = 0; n < out.length; n++) {
      out[n] = ((Number) Array.get(flat, n)).doubleValue();
    }
    return out;
  }
}
