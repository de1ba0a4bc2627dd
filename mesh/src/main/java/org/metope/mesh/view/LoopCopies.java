package org.metope.mesh.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Copies of a loop template ({@link CellLoopTemplate}, {@link FlatLoopTemplate}), one per kernel
 * class, so that every kernel gets a loop whose call {@code kernel.apply(...)} has only ever seen
 * that kernel.
 *
 * <p><b>Why.</b> HotSpot profiles a call site per method, not per caller. One shared loop method
 * called with many kernels (fluxes, divergence, derived fields, ...) sees many receiver classes
 * at its {@code apply} call, which then stays a virtual call per cell once the loop is compiled on
 * its own: no inlining, no hoisting of the views' fields, no vectorisation. A hidden class defined
 * from the template's bytes (Java 15+, {@link MethodHandles.Lookup#defineHiddenClass}) is a new
 * method with a fresh profile, so its call site is monomorphic and the JIT inlines the kernel into
 * the loop, as if the loop had been written out by hand around it.
 */
final class LoopCopies {
  private LoopCopies() {}

  /**
   * A new copy of {@code template} (a class of this package with a no-argument constructor), with
   * its own profile, as its interface {@code type}.
   */
  static <T> T of(Class<? extends T> template, Class<T> type) {
    try {
      MethodHandles.Lookup lookup =
          MethodHandles.lookup().defineHiddenClass(templateBytes(template), true);
      return type.cast(lookup.findConstructor(lookup.lookupClass(),
          MethodType.methodType(void.class)).invoke());
    } catch (Throwable e) {
      throw new IllegalStateException("cannot define a loop class from " + template.getName()
          + ": " + e, e);
    }
  }

  private static byte[] templateBytes(Class<?> template) {
    String resource = template.getSimpleName() + ".class";
    try (InputStream in = template.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("class file " + resource + " is not on the class path");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
