package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metope.test.ProcessResult;

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
  static final String SELF_TEST = "org.metope.comm.CommunicatorSelfTest";

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
    Map<String, String> environment = new HashMap<>(env);
    environment.put("METOPE_SKIP_BUILD", "1");
    ProcessResult r = ProcessResult.run(Path.of("."), limitSeconds, environment,
        command.toArray(new String[0]));
    return new LauncherRun(r.exitCode(), r.output());
  }
}
