package org.metope.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metope.comm.ProgressDeadline;

/**
 * Exit code and merged output of a real child process, with a time limit measured by the child's
 * progress ({@link ProgressDeadline}), so a hanging child fails the test instead of the build and
 * a child slowed by a busy machine is waited for.
 *
 * @param exitCode the child's exit code
 * @param output standard output and standard error, interleaved
 */
public record ProcessResult(int exitCode, String output) {

  /** Runs {@code command} in {@code dir}, killing it when it hangs ({@link ProgressDeadline}). */
  static ProcessResult run(Path dir, long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    return run(dir, timeoutSeconds, Map.of(), command);
  }

  /**
   * Runs {@code command} in {@code dir} with extra environment variables; when the process tree
   * made no progress for {@code timeoutSeconds}, or used that much CPU time on every processor,
   * kills it and fails.
   */
  public static ProcessResult run(Path dir, long timeoutSeconds, Map<String, String> env,
      String... command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
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
    String hung = ProgressDeadline.await(p.toHandle(), Duration.ofSeconds(timeoutSeconds));
    if (hung != null) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      reader.join(5000);
      throw new AssertionError("process did not finish (" + hung + "): "
          + String.join(" ", command));
    }
    p.waitFor();
    reader.join();
    return new ProcessResult(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
  }

  /** Runs a main class of this build in a new JVM with the test class path. */
  static ProcessResult java(long timeoutSeconds, String mainClass, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    return run(Path.of("."), timeoutSeconds, cmd.toArray(new String[0]));
  }
}
