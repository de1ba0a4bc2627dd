package org.metope.test.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.Application;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.Communicator;
import org.metope.comm.InProcessRun;
import org.metope.driver.RunOptions;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.mesh.BoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.IndexBox;
import org.metope.test.RepoPaths;

/**
 * The archetype's package, compiled from the archetype's own sources (as a generated project has
 * them, package {@code org.example.heat}) into a class loader of its own, runs its kernels (the
 * flux body {@code MyPackage.face}) resident on the emulated device with the stale host copy
 * poisoned, and its answer has the JVM backend's bits on the archetype's deck, on 1 and 2 ranks:
 * no framework file names the package. The negative control runs the bodies on the unacquired
 * host arena, as a backend that ignored residency would, and gets another answer.
 */
class ArchetypeResidentDeviceTest {
  private static final Path TEMPLATE = Path.of(
      "package-archetype/src/main/resources/archetype-resources");
  private static final String PACKAGE = "org.example.heat";

  @TempDir static Path classes;
  @TempDir Path dir;

  private static ClassLoader archetype;

  /**
   * Compiles the archetype's main sources, {@code ${package}} replaced, for Java 17 against the
   * launcher's jars only, as a generated project's build does.
   */
  @BeforeAll
  static void compileTheArchetypesPackage() throws IOException {
    Path sources = Files.createDirectories(classes.resolve("src"));
    List<String> args = new ArrayList<>(List.of("--release", "17", "-d",
        classes.resolve("out").toString(), "-cp", String.join(":", RepoPaths.launcherJars())));
    for (String name : List.of("MyPackage.java", "MyApplication.java")) {
      String text = Files.readString(RepoPaths.root().resolve(TEMPLATE)
          .resolve("src/main/java").resolve(name)).replace("${package}", PACKAGE);
      Path file = sources.resolve(name);
      Files.writeString(file, text);
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int rc = javac.run(null, null, errors, args.toArray(new String[0]));
    assertEquals(0, rc, errors.toString(StandardCharsets.UTF_8));
    archetype = new URLClassLoader(new URL[] {classes.resolve("out").toUri().toURL()},
        ArchetypeResidentDeviceTest.class.getClassLoader());
  }

  private record Outcome(Map<Integer, double[]> values, long cellLaunches) {}

  /** The archetype's deck on {@code ranks} ranks, on the JVM ({@code fault} null) or resident. */
  private Outcome run(int ranks, Fault fault, String... overrides) {
    Map<Integer, double[]> values = new ConcurrentHashMap<>();
    AtomicLong launches = new AtomicLong();
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.load(RepoPaths.root().resolve(TEMPLATE)
          .resolve("inputs/my_package.in"), List.of(overrides));
      if (fault == null) {
        values.putAll(interiorByGid(simulate(pin, comm, InOneBoundaryCommunication::fromInput)));
        return;
      }
      try (EmulatedDeviceBackend device = EmulatedDeviceBackend.resident(fault,
          new DeviceTrace(null), true)) {
        values.putAll(interiorByGid(simulate(pin, comm,
            p -> InOneBoundaryCommunication.fromInput(p, device))));
        launches.addAndGet(device.cellLaunches());
      }
    });
    return new Outcome(new TreeMap<>(values), launches.get());
  }

  private Mesh simulate(ParameterInput pin, Communicator comm,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    try {
      Application app = (Application) archetype.loadClass(PACKAGE + ".MyApplication")
          .getConstructor().newInstance();
      PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
          StandardCharsets.UTF_8);
      return ApplicationRunner.simulate(app, new ApplicationRunner.Launch(pin,
          RunOptions.of(dir, discard), discard, comm,
          boundaries)).mesh();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the archetype's application: " + e, e);
    }
  }

  /** The interior values of {@code u} of this rank's blocks by gid, each {@code k, j, i}. */
  private static Map<Integer, double[]> interiorByGid(Mesh mesh) {
    Map<Integer, double[]> values = new TreeMap<>();
    for (MeshData md : mesh.meshData("base")) {
      IndexBox cells = IndexBox.of(md.block(0).cellBounds(), IndexDomain.INTERIOR);
      for (int b = 0; b < md.numBlocks(); b++) {
        BlockView u = BlockView.of(md, "u", b);
        List<Double> v = new ArrayList<>();
        for (int k = cells.k().s(); k <= cells.k().e(); k++) {
          for (int j = cells.j().s(); j <= cells.j().e(); j++) {
            for (int i = cells.i().s(); i <= cells.i().e(); i++) {
              v.add(u.get(0, k, j, i));
            }
          }
        }
        values.put(md.block(b).gid(), v.stream().mapToDouble(Double::doubleValue).toArray());
      }
    }
    return values;
  }

  private void assertResidentMatchesJvm(int ranks) {
    Outcome jvm = run(ranks, null);
    Outcome device = run(ranks, Fault.NONE);
    assertTrue(device.cellLaunches() > 0, "the package's fluxes ran on the device");
    assertEquals(jvm.values().keySet(), device.values().keySet());
    for (Map.Entry<Integer, double[]> block : jvm.values().entrySet()) {
      assertArrayEquals(block.getValue(), device.values().get(block.getKey()), 0.0,
          "gid " + block.getKey());
    }
  }

  @Test
  void givenTheArchetypesDeck_whenResident_thenBitIdenticalToTheJvm() {
    assertResidentMatchesJvm(1);
  }

  @Test
  void givenTwoRanks_whenResident_thenBitIdenticalToTheJvm() {
    assertResidentMatchesJvm(2);
  }

  @Test
  void givenTheBodiesRunOnTheUnacquiredHostArena_whenResident_thenTheAnswerIsWrong() {
    Outcome jvm = run(1, null, "parthenon/time/nlim=3");
    Outcome device = run(1, Fault.CELL_BODIES_ON_HOST, "parthenon/time/nlim=3");
    assertEquals(0, device.cellLaunches());
    assertFalse(jvm.values().entrySet().stream().allMatch(
        e -> Arrays.equals(e.getValue(), device.values().get(e.getKey()))));
  }
}
