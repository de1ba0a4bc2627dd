package org.metope.app.launch;

import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Keeps the blank lines of a rank's output. MPJ Express 0.44 forwards what its rank processes
 * print line by line, and both forwarders, {@code runtime.starter.MulticoreDaemon} (multicore)
 * and {@code runtime.daemon.OutputHandler} (niodev), skip a line that {@code equals("")}: a run
 * on several ranks printed Metope's report without its blank lines. In those two classes every
 * {@code String.equals(Object)} becomes {@link MpjOutputLines#equalsUnlessBlank}, which answers
 * as {@code equals} except that a blank line is never equal to {@code ""}; their other {@code
 * equals} (an argument against {@code "-cp"}) answer as before. The rewritten call leaves the
 * operand stack as the original does and adds no branch.
 */
final class MpjOutputTransformer extends CallRewritingTransformer {
  /** MPJ's classes that forward the ranks' output. */
  static final Set<String> FORWARDERS = Set.of("runtime/starter/MulticoreDaemon",
      "runtime/daemon/OutputHandler");
  private static final String STRING = "java/lang/String";
  private static final String LINES = "org/metope/app/launch/MpjOutputLines";

  @Override
  boolean covers(String className) {
    return FORWARDERS.contains(className);
  }

  @Override
  MethodVisitor rewriter(MethodVisitor next, boolean[] changed) {
    return new MethodVisitor(Opcodes.ASM9, next) {
      @Override
      public void visitMethodInsn(int opcode, String owner, String method, String desc,
          boolean isInterface) {
        if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals(STRING) && method.equals("equals")
            && desc.equals("(Ljava/lang/Object;)Z")) {
          changed[0] = true;
          super.visitMethodInsn(Opcodes.INVOKESTATIC, LINES, "equalsUnlessBlank",
              "(Ljava/lang/String;Ljava/lang/Object;)Z", false);
        } else {
          super.visitMethodInsn(opcode, owner, method, desc, isInterface);
        }
      }
    };
  }
}
