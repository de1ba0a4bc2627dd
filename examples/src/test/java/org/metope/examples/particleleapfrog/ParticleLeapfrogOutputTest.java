package org.metope.examples.particleleapfrog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.driver.DriverStatus;
import org.metope.driver.RunOptions;
import org.metope.examples.TestLauncher;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;

/**
 * Swarm outputs and restarts of particle_leapfrog on Parthenon's regression deck (to t = 2, an hdf5
 * output at the end with {@code swarms = my_particles}, {@code swarm_variables = id, v, vv}, and
 * restart files every 1): the final file's swarm group has the structure of the file Parthenon's
 * binary wrote for the same deck (examples/src/test/resources/parthenon/particle_leapfrog), and a
 * run resumed from the t = 1 restart file ends with the same bits, in the same slots, as the
 * uninterrupted run, on one rank and on two.
 */
class ParticleLeapfrogOutputTest {
  private static final Path RESOURCES = Path.of("src/test/resources/parthenon/particle_leapfrog");
  private static final String SWARM = ParticlesPackage.SWARM;
  private static final String FINAL = "particles.out0.final.phdf";

  @TempDir Path dir;

  private static int launch(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    int code = TestLauncher.run(args, discard, new PrintStream(err, true,
        StandardCharsets.UTF_8));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    return code;
  }

  /** Every dataset under {@code group}, by path relative to the file's root. */
  private static Map<String, Dataset> datasets(Group group) {
    Map<String, Dataset> out = new TreeMap<>();
    for (Node node : group.getChildren().values()) {
      if (node instanceof Dataset d) {
        out.put(d.getPath(), d);
      } else if (node instanceof Group g) {
        out.putAll(datasets(g));
      }
    }
    return out;
  }

  /** A dataset's values as doubles, in file order (integers are exact). */
  private static double[] flat(Dataset d) {
    Object data = d.getDataFlat();
    double[] out = new double[Array.getLength(data)];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) Array.get(data, i)).doubleValue();
    }
    return out;
  }

  @Test
  void givenTheRegressionDeck_thenTheSwarmGroupIsLaidOutAsParthenonsAndHoldsItsParticles() {
    launch("-i", RESOURCES.resolve("regression.in").toString(), "-d", dir.toString());
    try (HdfFile ours = new HdfFile(dir.resolve(FINAL));
        HdfFile theirs = new HdfFile(RESOURCES.resolve("regression.out0.final.phdf"))) {
      Map<String, Dataset> a = datasets((Group) ours.getChild(SWARM));
      Map<String, Dataset> b = datasets((Group) theirs.getChild(SWARM));
      assertEquals(b.keySet(), a.keySet());
      for (String path : b.keySet()) {
        assertArrayEquals(b.get(path).getDimensions(), a.get(path).getDimensions(), path);
        assertEquals(b.get(path).getJavaType(), a.get(path).getJavaType(), path);
        assertEquals(b.get(path).getDataType().getDataClass(),
            a.get(path).getDataType().getDataClass(), path);
        assertEquals(b.get(path).getDataType().getSize(), a.get(path).getDataType().getSize(),
            path);
        if (b.get(path).getDataType() instanceof FixedPoint fixed) {
          assertEquals(fixed.isSigned(), ((FixedPoint) a.get(path).getDataType()).isSigned(),
              path);
        }
      }
      // Particles per block and their offsets are physics: every block holds the same ones.
      for (String name : List.of("counts", "offsets")) {
        String path = "/" + SWARM + "/" + name;
        assertArrayEquals(flat(b.get(path)), flat(a.get(path)), 0.0, path);
      }
      assertEquals(byId(theirs).keySet(), byId(ours).keySet());
      Map<Integer, double[]> mine = byId(ours);
      byId(theirs).forEach((id, values) -> assertArrayEquals(values, mine.get(id), 1e-12,
          "particle " + id));
    }
  }

  /** Each particle's x, y, z, v, vv by id, from a file's swarm group. */
  private static Map<Integer, double[]> byId(HdfFile file) {
    String vars = "/" + SWARM + "/SwarmVars/";
    double[] ids = flat(file.getDatasetByPath(vars + "id"));
    List<double[]> columns = new ArrayList<>();
    for (String name : List.of("swarm.x", "swarm.y", "swarm.z", "v", "vv")) {
      columns.add(flat(file.getDatasetByPath(vars + name)));
    }
    int np = ids.length;
    Map<Integer, double[]> out = new TreeMap<>();
    for (int p = 0; p < np; p++) {
      List<Double> row = new ArrayList<>();
      for (double[] column : columns) {
        for (int c = 0; c < column.length / np; c++) {
          row.add(column[c * np + p]);
        }
      }
      out.put((int) ids[p], row.stream().mapToDouble(Double::doubleValue).toArray());
    }
    return out;
  }

  /** This rank's part of a run resumed from {@code restart}, writing into {@code out}. */
  private static void resume(Path restart, Communicator comm, Path out) {
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    try (RestartFile file = RestartFile.open(restart)) {
      ParameterInput pin = ParameterInput.parse(restart.toString(), file.deck(), List.of());
      ApplicationRunner.Outcome outcome = ApplicationRunner.simulate(
          new ParticleLeapfrogApplication(), new ApplicationRunner.Launch(pin,
              new RunOptions(out, Long.MAX_VALUE, discard, true), discard, comm,
              InOneBoundaryCommunication::fromInput, file));
      assertEquals(DriverStatus.COMPLETE, outcome.status());
    }
  }

  @Test
  void givenTheT1RestartFile_thenTheResumedRunEndsWithTheSameBitsOnOneAndTwoRanks()
      throws IOException {
    Path whole = dir.resolve("whole");
    launch("-i", RESOURCES.resolve("regression.in").toString(), "-d", whole.toString());
    Path restart = whole.resolve("particles.out1.00001.rhdf");
    for (int ranks : new int[] {1, 2}) {
      Path resumed = Files.createDirectories(dir.resolve("resumed" + ranks));
      InProcessRun.run(ranks, comm -> resume(restart, comm, resumed));
      try (HdfFile a = new HdfFile(whole.resolve(FINAL));
          HdfFile b = new HdfFile(resumed.resolve(FINAL))) {
        Map<String, Dataset> expected = datasets((Group) a.getChild(SWARM));
        Map<String, Dataset> actual = datasets((Group) b.getChild(SWARM));
        assertEquals(expected.keySet(), actual.keySet());
        for (String path : expected.keySet()) {
          assertArrayEquals(flat(expected.get(path)), flat(actual.get(path)), 0.0,
              path + " resumed on " + ranks + " ranks");
        }
        assertEquals(14, flat(actual.get("/" + SWARM + "/SwarmVars/id")).length);
      }
    }
  }

  /** The line a run of the regression deck with {@code override} prints before exiting with 2. */
  private String refusal(String override) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    int code = TestLauncher.run(new String[] {"-i", RESOURCES.resolve("regression.in").toString(),
        "-d", dir.toString(), override}, discard, new PrintStream(err, true,
        StandardCharsets.UTF_8));
    assertEquals(2, code, override);
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void givenASwarmOrSwarmVariableThatDoesNotExist_thenOneLineNamesIt() {
    assertEquals("command line: parthenon/output0/swarm_variables = \"id, w\": expected variables of"
        + " the swarms in swarms = [my_particles]; w belongs to none\n",
        refusal("parthenon/output0/swarm_variables=id, w"));
    assertEquals("command line: parthenon/output0/swarms = \"my_particles, dust\": expected names"
        + " of swarms of this run ([my_particles]); dust is none\n",
        refusal("parthenon/output0/swarms=my_particles, dust"));
  }

  /**
   * A swarm named twice in {@code swarms} is written once, as a field named twice in {@code
   * variables} is (Parthenon keeps the names in a set); the file is the one the single name
   * writes.
   */
  @Test
  void givenASwarmNamedTwice_thenItIsWrittenOnceAsWithOneName() throws IOException {
    Path once = Files.createDirectories(dir.resolve("once"));
    Path twice = Files.createDirectories(dir.resolve("twice"));
    launch("-i", RESOURCES.resolve("regression.in").toString(), "-d", once.toString());
    launch("-i", RESOURCES.resolve("regression.in").toString(), "-d", twice.toString(),
        "parthenon/output0/swarms=my_particles, my_particles");
    try (HdfFile a = new HdfFile(once.resolve(FINAL));
        HdfFile b = new HdfFile(twice.resolve(FINAL))) {
      Map<String, Dataset> expected = datasets((Group) a.getChild(SWARM));
      Map<String, Dataset> actual = datasets((Group) b.getChild(SWARM));
      assertEquals(expected.keySet(), actual.keySet());
      for (String path : expected.keySet()) {
        assertArrayEquals(flat(expected.get(path)), flat(actual.get(path)), 0.0, path);
      }
    }
  }
}
