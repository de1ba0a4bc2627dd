package org.metope.comm;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks, for its rank, what TornadoVM needs of the directory that the launcher names in {@code
 * -Dmetope.device.launchers} for a JVM given TornadoVM's options: the rank writes a file there and
 * reads it back as a resource of the system class loader, the lookup by which TornadoVM reads a
 * kernel's class file. Prints one line per rank:
 *
 * <pre>
 * ./metope -np 2 --class org.metope.comm.LauncherDirectoryProbe
 * rank 0 launcher directory: found   (or: not found, or: none)
 * </pre>
 */
public final class LauncherDirectoryProbe {
  /** The property the launcher sets (kernels-tornado's {@code BodyLaunchers}). */
  static final String PROPERTY = "metope.device.launchers";

  private LauncherDirectoryProbe() {}

  /** Prints this rank's line; returns 0. */
  public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    Communicator world = Communicators.world();
    String directory = System.getProperty(PROPERTY);
    String result = "none";
    if (directory != null) {
      String name = "metope-probe/rank-" + world.rank() + "-" + ProcessHandle.current().pid();
      Path file = Path.of(directory, name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, name);
      try (InputStream in = ClassLoader.getSystemClassLoader().getResourceAsStream(name)) {
        boolean found = in != null
            && new String(in.readAllBytes(), StandardCharsets.UTF_8).equals(name);
        result = found ? "found" : "not found";
      } finally {
        Files.delete(file);
      }
    }
    out.println("rank " + world.rank() + " launcher directory: " + result);
    world.barrier();
    return 0;
  }
}
