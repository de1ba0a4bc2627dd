package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./metope install} packages every module as a build does, so the run after it starts
 * without building again (before, the first {@code ./metope -cp} after an install rebuilt the
 * whole project, about a minute). The launcher runs from a copy of its script in a repository of
 * one module, with a Maven that only records its arguments.
 */
class LauncherInstallTest {
  @TempDir Path dir;

  /** A repository with the launcher, a root pom and one module whose sources predate the run. */
  private Path repository() throws IOException {
    Path root = Files.createDirectories(dir.resolve("repo"));
    Path real = RepoPaths.root();
    Files.copy(real.resolve("metope"), root.resolve("metope"), StandardCopyOption.COPY_ATTRIBUTES);
    Files.createDirectories(root.resolve("launcher"));
    try (Stream<Path> scripts = Files.list(real.resolve("launcher"))) {
      for (Path script : scripts.toList()) {
        Files.copy(script, root.resolve("launcher").resolve(script.getFileName()));
      }
    }
    Path old = Files.createDirectories(root.resolve("m/src"));
    FileTime before = FileTime.from(Instant.now().minusSeconds(3600));
    for (Path p : List.of(Files.writeString(root.resolve("pom.xml"), "<project/>\n"),
        Files.writeString(root.resolve("m/pom.xml"), "<project/>\n"),
        Files.writeString(old.resolve("A.java"), "class A {}\n"))) {
      Files.setLastModifiedTime(p, before);
    }
    Files.writeString(root.resolve("run.in"), "<parthenon/job>\n");
    return root;
  }

  /** A directory holding {@code mvn}, which appends its arguments to {@code mvn.calls}. */
  private Path fakeMaven() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path mvn = Files.writeString(bin.resolve("mvn"),
        "#!/usr/bin/env bash\necho \"$*\" >> " + dir.resolve("mvn.calls") + "\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    return bin;
  }

  private ProcessResult launch(Path root, Path bin, String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = root.resolve("metope").toString();
    System.arraycopy(args, 0, command, 1, args.length);
    return ProcessResult.run(root, 60, Map.of("PATH", bin + ":" + System.getenv("PATH")),
        command);
  }

  @Test
  void givenAnInstall_thenTheNextRunDoesNotBuildAgain() throws Exception {
    Path root = repository();
    Path bin = fakeMaven();
    ProcessResult install = launch(root, bin, "install");
    assertEquals(0, install.exitCode(), install.output());
    List<String> calls = Files.readAllLines(dir.resolve("mvn.calls"));
    assertEquals(1, calls.size(), calls.toString());
    assertTrue(calls.get(0).contains("install"), calls.toString());

    ProcessResult run = launch(root, bin, "-i", "run.in");
    assertFalse(run.output().contains("metope: building"), run.output());
    assertEquals(calls, Files.readAllLines(dir.resolve("mvn.calls")), "no Maven run after it");
  }

  /** Negative control: without an install or a build, the run builds first. */
  @Test
  void givenNoBuild_thenTheRunBuildsFirst() throws Exception {
    Path root = repository();
    Path bin = fakeMaven();
    ProcessResult run = launch(root, bin, "-i", "run.in");
    assertTrue(run.output().contains("metope: building"), run.output());
    assertTrue(Files.readString(dir.resolve("mvn.calls")).contains("package"));
  }
}
