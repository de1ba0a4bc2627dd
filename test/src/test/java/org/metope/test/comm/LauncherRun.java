package org.metope.test.comm;

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
 * One run of the {@code ./metope} launcher as a real process tree, with a hard time limit: a run
 * that does not end in time has its whole tree (mpjrun, the daemon, every rank) killed and fails
 * the test, so a hung MPJ run cannot hang the build. The launcher is told not to build: the test
 * module runs after {@code examples} is packaged.
 *
 * @param exitCode the launcher's exit code
 * @param output standard output and standard error, interleaved
 */
record LauncherRun(int exitCode, String output) {
  static final Path MPJ_STARTER = Path.of("/usr/share/mpj/lib/starter.jar");
  static final String SELF_TEST = "org.metope.mesh.comm.CommunicatorSelfTest";

  /** Fails (never skips) when MPJ Express is missing: CI installs it, so its absence is an error. */
  static void requireMpj() {
    if (!Files.isRegularFile(MPJ_STARTER)) {
      fail("MPJ Express is not installed (" + MPJ_STARTER + " is missing): install Debian's "
          + "libmpj-java (apt-get install libmpj-java); .ci/run does");
    }
    Path app = root().resolve("examples/target/examples-0.1.0-SNAPSHOT.jar");
    if (!Files.isRegularFile(app)) {
      fail(app + " is missing: the MPJ tests run after 'examples' is packaged (mvn verify)");
    }
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

  /** Runs {@code ./metope args...} with extra environment, killed after {@code limitSeconds}. */
  static LauncherRun run(long limitSeconds, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("metope").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("METOPE_SKIP_BUILD", "1");
    pb.environment().putAll(env);
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
      fail("the launcher did not finish within " + limitSeconds + " s: " + String.join(" ", args)
          + "\n" + (out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8)));
    }
    reader.join();
    return new LauncherRun(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
  }
}
