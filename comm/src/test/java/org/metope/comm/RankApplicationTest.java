package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The rank entries' way of running an application class: the streams variant first, then {@code
 * int run(String[])}, then {@code main}; a missing class or method is a one-sentence {@link
 * RankApplication.ClassError}, and what the application throws reaches the entry unwrapped.
 */
class RankApplicationTest {
  private static final ClassLoader LOADER = RankApplicationTest.class.getClassLoader();

  /** Has every entry; the streams variant must win. */
  public static final class WithStreams {
    public static int run(String[] args, PrintStream out, PrintStream err) {
      out.print("streams " + String.join(",", args));
      return 3;
    }

    public static int run(String[] args) {
      return 4;
    }
  }

  /** Only {@code int run(String[])}. */
  public static final class WithRun {
    public static int run(String[] args) {
      return args.length;
    }
  }

  /** Only {@code main}, which throws. */
  public static final class WithMain {
    public static void main(String[] args) {
      throw new IllegalStateException("from main: " + args[0]);
    }
  }

  /** No entry at all. */
  public static final class WithNothing {}

  @Test
  void givenEachKindOfEntry_thenTheRightOneRunsWithTheArguments() throws Throwable {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    assertEquals(3, RankApplication.run(new String[] {WithStreams.class.getName(), "a", "b"},
        LOADER, out, System.err));
    assertEquals("streams a,b", bytes.toString(StandardCharsets.UTF_8));
    assertEquals(2, RankApplication.run(new String[] {WithRun.class.getName(), "x", "y"}, LOADER,
        out, System.err));
    IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> RankApplication.run(new String[] {WithMain.class.getName(), "z"}, LOADER, out,
            System.err));
    assertEquals("from main: z", thrown.getMessage());
  }

  @Test
  void givenNoUsableClass_thenAOneSentenceClassError() {
    RankApplication.ClassError missing = assertThrows(RankApplication.ClassError.class,
        () -> RankApplication.run(new String[] {"no.such.Class"}, LOADER, System.out,
            System.err));
    assertTrue(missing.getMessage().startsWith("--class no.such.Class: no such class on the "
        + "class path"), missing.getMessage());
    RankApplication.ClassError none = assertThrows(RankApplication.ClassError.class,
        () -> RankApplication.run(new String[] {WithNothing.class.getName()}, LOADER, System.out,
            System.err));
    assertTrue(none.getMessage().contains("has neither public static int run(String[]) nor "
        + "main(String[])"), none.getMessage());
    assertThrows(RankApplication.ClassError.class,
        () -> RankApplication.run(new String[0], LOADER, System.out, System.err));
  }
}
