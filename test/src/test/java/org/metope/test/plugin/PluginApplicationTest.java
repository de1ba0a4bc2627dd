package org.metope.test.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;
import org.metope.test.RepoPaths;

/**
 * A user's application outside the repository, as the launcher sees it: {@link WaveApplication}'s
 * source is compiled at test time against the built jars only, packed into a jar with its
 * {@code META-INF/services} entry, and run through the real {@code ./metope -cp} on 1 rank and on
 * 2 MPJ ranks of both devices (same history file); by class name without a service file; with
 * a second jar claiming the same name, an unknown name, a missing jar, and a user entry class
 * under {@code --class}.
 */
class PluginApplicationTest {
  private static final long LIMIT_SECONDS = 180;
  private static final String SERVICE = "META-INF/services/org.metope.app.Application";
  private static final String WAVE = "org.metope.test.plugin.WaveApplication";

  @TempDir static Path work;
  private static Path pluginJar;
  private static Path withoutServiceJar;
  private static Path duplicateJar;

  @TempDir Path dir;

  @BeforeAll
  static void buildPluginJars() throws Exception {
    Path root = root();
    Path source = root.resolve("test/src/test/java/org/metope/test/plugin/WaveApplication.java");
    Path classes = compile("wave", List.of(source));
    pluginJar = jar("wave.jar", classes, WAVE);
    withoutServiceJar = jar("wave-no-service.jar", classes, null);
    Path other = work.resolve("src/com/example/OtherWave.java");
    Files.createDirectories(other.getParent());
    Files.writeString(other, """
        package com.example;

        import org.metope.app.Application;
        import org.metope.driver.ProblemGenerator;
        import org.metope.mesh.field.Packages;
        import org.metope.mesh.input.ParameterInput;

        public final class OtherWave implements Application {
          public String name() { return "wave"; }
          public String deckBlock() { return "other_wave"; }
          public String description() { return "a second application named wave"; }
          public Packages processPackages(ParameterInput pin) { return new Packages(); }
          public ProblemGenerator problemGenerator(Packages packages) { return (md, b) -> { }; }
        }
        """);
    Path hello = work.resolve("src/com/example/Hello.java");
    Files.writeString(hello, """
        package com.example;

        public final class Hello {
          public static int run(String[] args) {
            System.out.println("hello from a user class, args=" + String.join(",", args));
            return 0;
          }
        }
        """);
    duplicateJar = jar("other.jar", compile("other", List.of(other, hello)),
        "com.example.OtherWave");
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isExecutable(dir.resolve("metope"))) {
      dir = dir.getParent();
    }
    return dir;
  }

  /** Compiles {@code sources} against the launcher's jars only, as a user's build would. */
  private static Path compile(String name, List<Path> sources) throws IOException {
    List<String> jars = RepoPaths.launcherJars();
    assertTrue(jars.stream().anyMatch(j -> j.contains("app-")), "no app jar in " + jars);
    Path out = Files.createDirectories(work.resolve(name + "-classes"));
    List<String> args = new ArrayList<>(List.of("--release", "17", "-d", out.toString(),
        "-cp", String.join(":", jars)));
    for (Path s : sources) {
      args.add(s.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, args.toArray(new String[0])), "javac failed");
    return out;
  }

  /** A jar of {@code classes}, naming {@code service} in its service file unless null. */
  private static Path jar(String name, Path classes, String service) throws IOException {
    Path jar = work.resolve(name);
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> all = Files.walk(classes)) {
      for (Path f : all.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(f));
        out.closeEntry();
      }
      if (service != null) {
        out.putNextEntry(new JarEntry(SERVICE));
        out.write((service + "\n").getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return jar;
  }

  private Path deck(String extra) throws IOException {
    Path deck = dir.resolve("wave.in");
    Files.writeString(deck, "<parthenon/job>\nproblem_id = wave\n"
        + "<parthenon/mesh>\nnx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = periodic\n"
        + "ox1_bc = periodic\nnx2 = 1\nx2min = 0\nx2max = 1\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 16\n"
        + "<parthenon/time>\ntlim = 0.25\nintegrator = rk2\n"
        + "<parthenon/output0>\nfile_type = hst\ndt = 0.05\ndata_format = %.17e\n"
        + extra);
    return deck;
  }

  private static ProcessResult metope(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("metope").toString());
    command.addAll(List.of(args));
    Map<String, String> environment = new java.util.HashMap<>(env);
    environment.put("METOPE_SKIP_BUILD", "1");
    return ProcessResult.run(Path.of("."), LIMIT_SECONDS, environment,
        command.toArray(new String[0]));
  }

  private String history(Path out) throws IOException {
    return Files.readString(out.resolve("wave.out0.hst"));
  }

  @Test
  void givenThePluginJar_thenOneRankTwoMulticoreAndTwoNiodevRanksWriteTheSameHistory()
      throws Exception {
    requireMpj();
    String deck = deck("<wave>\nv = 1\n").toString();
    Path one = Files.createDirectories(dir.resolve("one"));
    ProcessResult serial = metope(Map.of(), "-cp", pluginJar.toString(), "-i", deck, "-d",
        one.toString());
    assertEquals(0, serial.exitCode(), serial.output());
    String expected = history(one);
    assertTrue(expected.lines().count() >= 6, expected);
    assertTrue(expected.contains("total_u"), expected);
    for (String device : List.of("multicore", "niodev")) {
      Path out = Files.createDirectories(dir.resolve(device));
      ProcessResult r = metope(Map.of(), "-np", "2", "--dev", device, "--classpath",
          pluginJar.toString(), "-i", deck, "-d", out.toString());
      assertEquals(0, r.exitCode(), device + ": " + r.output());
      assertEquals(expected, history(out), device);
    }
    Path env = Files.createDirectories(dir.resolve("env"));
    ProcessResult fromEnv = metope(Map.of("METOPE_CLASSPATH", pluginJar.toString()), "-i", deck,
        "-d", env.toString());
    assertEquals(0, fromEnv.exitCode(), fromEnv.output());
    assertEquals(expected, history(env));
  }

  @Test
  void givenNoJar_thenTheDeckOfThePluginIsRefusedInOneLine() throws Exception {
    ProcessResult r = metope(Map.of(), "-i", deck("<wave>\nv = 1\n").toString(), "-d",
        dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertTrue(r.output().contains("no application is named and no application block is"
        + " present"), r.output());
  }

  @Test
  void givenAClassNameInTheDeck_thenItRunsWithoutAServiceFile() throws Exception {
    String deck = deck("<metope>\napplication = " + WAVE + "\n<wave>\nv = 1\nkapa = 2\n")
        .toString();
    ProcessResult r = metope(Map.of(), "-cp", withoutServiceJar.toString(), "-i", deck, "-d",
        dir.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(history(dir).lines().count() >= 6);
    assertTrue(r.output().contains("wave.in:28: wave/kapa is not read by this run"), r.output());
    assertFalse(r.output().contains("block <wave>"), r.output());
  }

  @Test
  void givenTwoJarsWithOneName_thenOneLineNamingBothClasses() throws Exception {
    ProcessResult r = metope(Map.of(), "-cp", pluginJar + ":" + duplicateJar, "-i",
        deck("<wave>\n").toString(), "-d", dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertEquals("metope: two applications are named wave: " + WAVE + " and com.example.OtherWave"
        + " (remove one of their jars from the class path)", r.output().strip());
  }

  @Test
  void givenAnUnknownName_thenTheLineListsTheApplicationsFound() throws Exception {
    ProcessResult r = metope(Map.of(), "-cp", pluginJar.toString(), "-i",
        deck("<metope>\napplication = wav\n").toString(), "-d", dir.toString());
    assertEquals(2, r.exitCode(), r.output());
    assertTrue(r.output().strip().endsWith("/wave.in:25: metope/application = \"wav\": expected"
        + " one of advection, burgers, diffusion, field_loop, fine_advection, ghost_check,"
        + " particle_leapfrog,"
        + " particle_tracers, poisson, poisson_gmg, sparse_advection, wave"),
        r.output());
    assertEquals(1, r.output().strip().lines().count(), r.output());
  }

  @Test
  void givenAMissingJar_thenOneLineBeforeAnythingRuns() throws Exception {
    Path missing = dir.resolve("missing.jar");
    for (String[] prefix : new String[][] {{}, {"-np", "2"}}) {
      List<String> args = new ArrayList<>(List.of(prefix));
      args.addAll(List.of("-cp", missing.toString(), "-i", deck("<wave>\n").toString()));
      ProcessResult r = metope(Map.of(), args.toArray(new String[0]));
      assertEquals(2, r.exitCode(), r.output());
      assertEquals("metope: -cp: " + missing + " does not exist (expected jars or class"
          + " directories separated by ':')", r.output().strip());
    }
  }

  @Test
  void givenHelpWithTheJar_thenThePluginIsListed() throws Exception {
    ProcessResult r = metope(Map.of(), "-cp", pluginJar.toString(), "--help");
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("\n  wave             <wave>  test plug-in: donor-cell"),
        r.output());
    assertTrue(r.output().contains("\n  burgers          <burgers>  Parthenon-VIBE"), r.output());
  }

  @Test
  void givenAUserEntryClass_thenEveryMpjRankRunsIt() throws Exception {
    requireMpj();
    ProcessResult r = metope(Map.of(), "-np", "2", "-cp", duplicateJar.toString(), "--class",
        "com.example.Hello", "x", "y");
    assertEquals(0, r.exitCode(), r.output());
    assertEquals(2, r.output().split("hello from a user class, args=x,y", -1).length - 1,
        r.output());
  }

  private static void requireMpj() {
    assertTrue(Files.isRegularFile(Path.of("/usr/share/mpj/lib/starter.jar")),
        "MPJ Express is not installed: install Debian's libmpj-java");
  }
}
