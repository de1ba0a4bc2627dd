package org.metope.mesh.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.BlockShape;
import org.metope.mesh.field.MeshData;

/**
 * The index checks are a static final switch, fixed when the class loads, so they are tested in a
 * child JVM ({@link OutOfRowRead}): with {@code -Dmetope.view.checks=true} a read at {@code i =
 * ni} (inside the arena: it is the next row's first value) throws naming the index; without the
 * switch the same read silently returns the next row's value, which is why the checks exist.
 */
class ViewChecksTest {

  /** Reads {@code (b=0, n=0, k=1, j=1, i=ni)} of {@code u} and prints the value. */
  static final class OutOfRowRead {
    public static void main(String[] args) {
      MeshData md = ViewFixtures.storage(new BlockShape(6, 5, 4)).partitions("base", -1).get(0);
      FieldView u = FieldView.of(md, "u");
      u.set(0, 0, 1, 2, 0, 42.0);
      System.out.print("read " + u.get(0, 0, 1, 1, 6));
    }
  }

  private static String[] run(boolean checks) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Dmetope.view.checks=" + checks, "-cp",
        System.getProperty("java.class.path"), OutOfRowRead.class.getName()));
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return new String[] {Integer.toString(p.exitValue()), output};
  }

  @Test
  void givenChecksOn_thenAnIndexPastTheRowThrowsNamingIt() throws Exception {
    String[] result = run(true);
    assertEquals("1", result[0], result[1]);
    assertTrue(result[1].contains("view index i=6 outside [0, 6) of field=u"), result[1]);
  }

  @Test
  void givenChecksOff_thenTheSameReadReturnsTheNextRowsValue() throws Exception {
    String[] result = run(false);
    assertEquals("0", result[0], result[1]);
    assertEquals("read 42.0", result[1]);
  }
}
