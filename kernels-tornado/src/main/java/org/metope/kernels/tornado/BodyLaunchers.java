package org.metope.kernels.tornado;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Launchers made per package body: a copy of a launcher template ({@link CellsLauncher}, {@link
 * ReductionLauncher}) whose placeholder call ({@link LauncherBody}) names the body's static method
 * ({@link BodyMethod}), defined in the body's package as {@code <Body>$MetopeCells$<method>} (or
 * {@code $MetopeReduction$}), so that its call links like the body's own class's calls. The copy is
 * made by renaming constant pool entries of the template's class file ({@link
 * ConstantPoolRenamer}), which the Java 17 build can do (the JDK's class-file API is JDK 24+), and
 * keeps javac's own code for the template, {@code @Parallel} annotations included.
 *
 * <p>TornadoVM reads a task's {@code @Parallel} annotations from the class file that the system
 * class loader finds as a resource, so a copy is also written, as a class file, into the directory
 * named by the system property {@value #DIRECTORY_PROPERTY}, where the system class loader must
 * find it: on the class path or appended to the boot class path ({@code ./metope} appends it to
 * the boot class path of every rank, since MPJ's starters replace a rank JVM's class path). Each
 * copy is made once per JVM, which the ranks of an MPJ multicore run share.
 */
final class BodyLaunchers {
  /** The system property naming the directory that launchers are written to. */
  static final String DIRECTORY_PROPERTY = "metope.device.launchers";

  /** A launcher's template and the placeholder method it calls. */
  enum Shape {
    CELLS(CellsLauncher.class, "placeholderCell", "$MetopeCells$", BodyMethod.CELL),
    REDUCTION(ReductionLauncher.class, "placeholderMeasure", "$MetopeReduction$",
        BodyMethod.MEASURE);

    final Class<?> template;
    final String placeholder;
    final String infix;
    final String descriptor;

    Shape(Class<?> template, String placeholder, String infix, String descriptor) {
      this.template = template;
      this.placeholder = placeholder;
      this.infix = infix;
      this.descriptor = descriptor;
    }
  }

  private record Key(Shape shape, BodyMethod method) {}

  private static final Map<Key, Class<?>> MADE = new ConcurrentHashMap<>();

  private BodyLaunchers() {}

  /**
   * Whether copies are written where TornadoVM reads them ({@value #DIRECTORY_PROPERTY} is set).
   */
  static boolean published() {
    return System.getProperty(DIRECTORY_PROPERTY) != null;
  }

  /** The launcher of {@code shape} calling {@code body}, made and defined on first use. */
  static Class<?> launcher(Shape shape, Object body) {
    BodyMethod method = BodyMethod.of(body, shape.descriptor);
    return MADE.computeIfAbsent(new Key(shape, method), BodyLaunchers::make);
  }

  private static Class<?> make(Key key) {
    Shape shape = key.shape();
    BodyMethod body = key.method();
    String template = internalName(shape.template);
    String name = body.owner().getName().replace('.', '/') + shape.infix + body.name();
    byte[] copy = ConstantPoolRenamer.rename(templateBytes(shape.template),
        Map.of(template, name, internalName(LauncherBody.class),
            body.owner().getName().replace('.', '/')),
        Map.of(shape.placeholder, body.name()));
    publish(name, copy);
    try {
      return MethodHandles.privateLookupIn(body.owner(), MethodHandles.lookup())
          .defineClass(copy);
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("a device body's class must be open to Metope's"
          + " kernels (not in a closed named module): " + body.owner().getName(), e);
    } catch (LinkageError e) {
      // defined already, by an earlier copy of this class in the same loader
      try {
        return Class.forName(name.replace('/', '.'), false, body.owner().getClassLoader());
      } catch (ClassNotFoundException notFound) {
        throw e;
      }
    }
  }

  /** Writes {@code copy} as {@code name.class} under the launcher directory, if there is one. */
  private static void publish(String name, byte[] copy) {
    String directory = System.getProperty(DIRECTORY_PROPERTY);
    if (directory == null) {
      return;
    }
    Path file = Path.of(directory, name + ".class");
    try {
      Files.createDirectories(file.getParent());
      Path part = Files.createTempFile(file.getParent(), "launcher", ".part");
      Files.write(part, copy);
      // atomic: ranks of one run write the same bytes at the same time
      Files.move(part, file, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a device launcher to " + file + ": " + e, e);
    }
  }

  private static String internalName(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  private static byte[] templateBytes(Class<?> template) {
    String resource = template.getSimpleName() + ".class";
    try (InputStream in = template.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("launcher template not found: " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read launcher template " + resource, e);
    }
  }
}
