package org.metope.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Locations in the repository, found from the test module's working directory. */
public final class RepoPaths {
  private RepoPaths() {}

  /** The repository root: the first ancestor holding the {@code metope} launcher. */
  public static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isExecutable(dir.resolve("metope")) && Files.isDirectory(dir.resolve("inputs"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("repository root not found above " + Path.of("").toAbsolutePath());
  }

  /** The launcher script. */
  public static Path launcher() {
    return root().resolve("metope");
  }

  /** The deck directory. */
  public static Path inputs() {
    return root().resolve("inputs");
  }

  /**
   * The jars of the launcher's class path ({@code examples/target/lib}), sorted: what a user's
   * package compiles against.
   */
  public static List<String> launcherJars() throws IOException {
    try (Stream<Path> files = Files.list(root().resolve("examples/target/lib"))) {
      return files.map(Path::toString).filter(f -> f.endsWith(".jar")).sorted().toList();
    }
  }
}
