package org.metope.test;

import java.nio.file.Files;
import java.nio.file.Path;

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
}
