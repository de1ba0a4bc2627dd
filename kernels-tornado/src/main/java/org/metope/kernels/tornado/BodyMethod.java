package org.metope.kernels.tornado;

import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The static method behind a package's body ({@link org.metope.kernels.body.CellBody}, {@link
 * org.metope.kernels.body.CellMeasure}), which a device launcher calls by name: a device compiler
 * such as TornadoVM compiles static calls, not a call through an object. A method reference to a
 * static method ({@code MyPackage::flux}) of a serializable functional interface is a lambda whose
 * {@code writeReplace} names its implementation ({@link SerializedLambda}); anything else (a
 * lambda expression, an instance method, a class implementing the interface) is refused in one
 * sentence.
 *
 * @param owner the class that declares the method
 * @param name the method's name
 * @param descriptor the method's JVM descriptor
 */
record BodyMethod(Class<?> owner, String name, String descriptor) {
  /** The descriptor of a {@code CellBody}'s method. */
  static final String CELL = "([D[II[DIIII)V";
  /** The descriptor of a {@code CellMeasure}'s method. */
  static final String MEASURE = "([D[II[DIIII)D";

  /**
   * The static method of {@code body}, which must have descriptor {@code descriptor}.
   *
   * @throws IllegalArgumentException when {@code body} is not a reference to a static method that
   *     a class of its package can call
   */
  static BodyMethod of(Object body, String descriptor) {
    SerializedLambda lambda = serializedForm(body);
    String implName = lambda.getImplMethodName();
    if (lambda.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic
        || lambda.getCapturedArgCount() != 0 || implName.startsWith("lambda$")
        || !lambda.getImplMethodSignature().equals(descriptor)) {
      throw refused(body, "it is " + describe(lambda));
    }
    Class<?> owner = owner(body, lambda.getImplClass());
    for (Method m : owner.getDeclaredMethods()) {
      if (m.getName().equals(implName) && Modifier.isStatic(m.getModifiers())
          && Modifier.isPrivate(m.getModifiers())) {
        throw refused(body, "method " + owner.getName() + "." + implName
            + " is private (make it package-private)");
      }
    }
    return new BodyMethod(owner, implName, descriptor);
  }

  /** The class's package, as a JVM internal name prefix ({@code a/b/}, empty for none). */
  String packagePrefix() {
    String internal = owner.getName().replace('.', '/');
    return internal.substring(0, internal.lastIndexOf('/') + 1);
  }

  private static SerializedLambda serializedForm(Object body) {
    try {
      Method replace = body.getClass().getDeclaredMethod("writeReplace");
      replace.setAccessible(true);
      if (replace.invoke(body) instanceof SerializedLambda lambda) {
        return lambda;
      }
    } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException
        | RuntimeException e) {
      // not a serializable lambda: refused below
    }
    throw refused(body, "it is not a method reference (" + body.getClass().getName() + ")");
  }

  private static Class<?> owner(Object body, String implClass) {
    try {
      return Class.forName(implClass.replace('/', '.'), false,
          body.getClass().getClassLoader());
    } catch (ClassNotFoundException e) {
      throw refused(body, "its class " + implClass + " is not found");
    }
  }

  private static String describe(SerializedLambda lambda) {
    String where = lambda.getImplClass().replace('/', '.') + "." + lambda.getImplMethodName();
    if (lambda.getImplMethodName().startsWith("lambda$")) {
      return "a lambda expression in " + lambda.getImplClass().replace('/', '.');
    }
    if (lambda.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic) {
      return "instance method " + where;
    }
    return lambda.getCapturedArgCount() != 0 ? "a reference capturing values (" + where + ")"
        : "method " + where + lambda.getImplMethodSignature() + " of another signature";
  }

  private static IllegalArgumentException refused(Object body, String why) {
    return new IllegalArgumentException("a device body must be a reference to a static method"
        + " (MyPackage::flux), which the device compiler calls directly; " + why);
  }
}
