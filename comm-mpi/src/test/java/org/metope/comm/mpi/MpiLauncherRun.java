package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@code ./metope} or {@code mpirun} as a real process tree with a hard time limit: a
 * run that does not end in time has its whole tree killed and fails the test, so a hung MPI job
 * cannot hang the build. The launcher is told not to build: these tests run after the JDK 17
 * reactor packaged {@code examples} and after this module compiled.
 *
 * @param exitCode the process's exit code
 * @param output standard output and standard error, interleaved
 */
record MpiLauncherRun(int exitCode, String output) {
  static final String SELF_TEST = "org.metope.comm.CommunicatorSelfTest";

  /** Fails (never skips) when Open MPI or the packaged examples are missing. */
  static void requirePrerequisites() {
    if (!onPath("mpirun")) {
      fail("Open MPI's mpirun is not on PATH: install openmpi-bin and libopenmpi-dev; "
          + "./metope test does");
    }
    Path app = root().resolve("examples/target/examples-0.1.0-SNAPSHOT.jar");
    if (!Files.isRegularFile(app)) {
      fail(app + " is missing: the MPI device's tests run after the JDK 17 reactor packaged "
          + "'examples' (./metope test runs them after mvn verify)");
    }
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  /** The repository root: the first ancestor holding the {@code metope} launcher. */
  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isExecutable(dir.resolve("metope"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no metope launcher above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** {@code ./metope args...}, killed after {@code limitSeconds}. */
  static MpiLauncherRun metope(long limitSeconds, String... args)
      throws IOException, InterruptedException {
    return metope(limitSeconds, Map.of(), args);
  }

  /** {@code ./metope args...} with extra environment, killed after {@code limitSeconds}. */
  static MpiLauncherRun metope(long limitSeconds, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("metope").toString());
    command.addAll(List.of(args));
    return run(limitSeconds, env, command);
  }

  /**
   * {@code mpirun -q -np N ./metope args...} the way a user starts it, with {@code
   * --allow-run-as-root} as root and {@code --oversubscribe}: the suite runs on any machine, also
   * one with fewer cores than ranks as Open MPI counts them (physical cores, not threads).
   */
  static MpiLauncherRun mpirun(long limitSeconds, int ranks, String... args)
      throws IOException, InterruptedException {
    return mpirun(limitSeconds, Map.of(), ranks, args);
  }

  /** {@link #mpirun(long, int, String...)} with extra environment. */
  static MpiLauncherRun mpirun(long limitSeconds, Map<String, String> extra, int ranks,
      String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("mpirun", "-q", "-np", "" + ranks));
    if ("root".equals(System.getProperty("user.name"))) {
      command.add("--allow-run-as-root");
    }
    command.add("--oversubscribe");
    command.add(root().resolve("metope").toString());
    command.addAll(List.of(args));
    return run(limitSeconds, extra, command);
  }

  /** {@code command} as it is (e.g. mpirun inside a network namespace), killed after the limit. */
  static MpiLauncherRun run(long limitSeconds, Map<String, String> extra,
      List<String> command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.putAll(extra);
    env.put("METOPE_SKIP_BUILD", "1");
    Process p = pb.start();
    byte[][] out = new byte[1][];
    Thread reader = new Thread(() -> {
      try {
        out[0] = p.getInputStream().readAllBytes();
      } catch (IOException e) {
        out[0] = ("<output unreadable: " + e + ">").getBytes(StandardCharsets.UTF_8);
      }
    });
    reader.start();
    if (!p.waitFor(limitSeconds, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      reader.join(5000);
      throw new AssertionError("process did not finish within " + limitSeconds + " s: "
          + String.join(" ", command));
    }
    reader.join();
    return new MpiLauncherRun(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
  }
}
