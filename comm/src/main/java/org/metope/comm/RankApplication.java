package org.metope.comm;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Runs the application class a rank entry was given (the MPJ entry under {@code mpjrun}, the MPI
 * entry under {@code mpirun}): {@code appArgs[0]} names the class, the rest are its arguments. The
 * class provides {@code public static int run(String[], PrintStream out, PrintStream err)}, {@code
 * public static int run(String[])} (both return the exit code), or a {@code main(String[])}.
 */
public final class RankApplication {
  private RankApplication() {}

  /** The application class cannot be run: a user error (e.g. a misspelt {@code --class}). */
  public static final class ClassError extends Exception {
    private static final long serialVersionUID = 1L;

    ClassError(String message) {
      super(message);
    }
  }

  /**
   * Runs the application's {@code run(String[], PrintStream, PrintStream)}, its {@code
   * run(String[])} or its {@code main}, loaded with {@code loader}; returns its exit code. What the
   * application throws is thrown here.
   *
   * @throws ClassError when there is no class, or it has none of those methods
   */
  public static int run(String[] appArgs, ClassLoader loader, PrintStream out, PrintStream err)
      throws Throwable {
    if (appArgs.length == 0) {
      throw new ClassError("no application class: expected APP_CLASS [ARGS...]");
    }
    Class<?> app;
    try {
      app = Class.forName(appArgs[0], true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ClassError("--class " + appArgs[0] + ": no such class on the class"
          + " path (expected a class with public static int run(String[]) or main(String[]))");
    }
    String[] args = Arrays.copyOfRange(appArgs, 1, appArgs.length);
    try {
      Method withStreams = publicStatic(app, "run", int.class, String[].class, PrintStream.class,
          PrintStream.class);
      if (withStreams != null) {
        return (Integer) withStreams.invoke(null, args, out, err);
      }
      Method run = publicStatic(app, "run", int.class, String[].class);
      if (run != null) {
        return (Integer) run.invoke(null, (Object) args);
      }
      Method main = publicStatic(app, "main", void.class, String[].class);
      if (main == null) {
        throw new ClassError("--class " + app.getName() + ": the class has neither"
            + " public static int run(String[]) nor main(String[])");
      }
      main.invoke(null, (Object) args);
      return 0;
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Method publicStatic(Class<?> type, String name, Class<?> returns,
      Class<?>... parameters) {
    try {
      Method m = type.getMethod(name, parameters);
      int mods = m.getModifiers();
      return Modifier.isStatic(mods) && m.getReturnType() == returns ? m : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
