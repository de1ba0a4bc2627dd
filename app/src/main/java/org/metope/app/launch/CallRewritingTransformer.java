package org.metope.app.launch;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A transformer that rewrites method calls inside some of MPJ Express's classes: every method of
 * a class it {@link #covers} goes through {@link #rewriter}, which sets {@code changed[0]} when it
 * rewrote a call; a class with no rewritten call is left as it was loaded (null).
 */
abstract class CallRewritingTransformer implements ClassFileTransformer {
  /** Whether the class of internal name {@code className} is one to rewrite. */
  abstract boolean covers(String className);

  /** The visitor that rewrites one method's calls, passing the rest on to {@code next}. */
  abstract MethodVisitor rewriter(MethodVisitor next, boolean[] changed);

  @Override
  public final byte[] transform(ClassLoader loader, String className, Class<?> redefined,
      ProtectionDomain domain, byte[] classfile) {
    if (className == null || !covers(className)) {
      return null;
    }
    ClassReader reader = new ClassReader(classfile);
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    boolean[] changed = {false};
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return rewriter(super.visitMethod(access, name, descriptor, signature, exceptions),
            changed);
      }
    }, 0);
    return changed[0] ? writer.toByteArray() : null;
  }
}
