package org.metope.mesh.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * One copy of {@link CellLoopTemplate} per kernel class, so that every kernel gets a loop whose
 * call {@code kernel.apply(b, k, j, i)} has only ever seen that kernel.
 *
 * <p><b>Why.</b> HotSpot profiles a call site per method, not per caller. One shared loop method
 * called with many kernels (fluxes, divergence, derived fields, ...) sees many receiver classes
 * at its {@code apply} call, which then stays a virtual call per cell once the loop is compiled on
 * its own: no inlining, no hoisting of the views' fields, no vectorisation. A hidden class defined
 * from the template's bytes (Java 15+, {@link MethodHandles.Lookup#defineHiddenClass}) is a new
 * method with a fresh profile, so its call site is monomorphic and the JIT inlines the kernel into
 * the loop, as if the loop had been written out by hand around it.
 */
final class CellLoops {
  private static final byte[] TEMPLATE = templateBytes();

  private CellLoops() {}

  /** A new copy of the loop, with its own profile. */
  static CellLoop specialised() {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
      return (CellLoop) lookup.findConstructor(lookup.lookupClass(),
          MethodType.methodType(void.class)).invoke();
    } catch (Throwable e) {
      throw new IllegalStateException("cannot define a loop class from CellLoopTemplate: " + e,
          e);
    }
  }

  private static byte[] templateBytes() {
    String resource = CellLoopTemplate.class.getSimpleName() + ".class";
    try (InputStream in = CellLoopTemplate.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("class file " + resource + " is not on the class path");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
