package org.metope.app.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The rewriting of MPJ Express's output forwarders, on Debian's MPJ 0.44 classes themselves (the
 * launcher test {@code MpjSimulationTest} sees the blank lines arrive through a real run).
 */
class MpjOutputTransformerTest {
  private static final Path MPJ_LIB = Path.of("/usr/share/mpj/lib");

  private static byte[] mpjClass(String jar, String name) throws IOException {
    Path file = MPJ_LIB.resolve(jar);
    assumeTrue(Files.isRegularFile(file), "MPJ Express (libmpj-java) is not installed");
    try (JarFile j = new JarFile(file.toFile())) {
      return j.getInputStream(j.getEntry(name + ".class")).readAllBytes();
    }
  }

  /** Every method call of {@code classfile}, as {@code owner.name}. */
  private static List<String> calls(byte[] classfile) {
    List<String> calls = new ArrayList<>();
    new ClassReader(classfile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String desc,
              boolean isInterface) {
            calls.add(owner + "." + method);
          }
        };
      }
    }, 0);
    return calls;
  }

  @Test
  void givenMpjsForwarders_thenTheirEqualsTestsLetBlankLinesThrough() throws IOException {
    MpjOutputTransformer transformer = new MpjOutputTransformer();
    for (String[] forwarder : new String[][] {{"starter.jar", "runtime/starter/MulticoreDaemon"},
        {"daemon.jar", "runtime/daemon/OutputHandler"}}) {
      byte[] original = mpjClass(forwarder[0], forwarder[1]);
      assertTrue(calls(original).contains("java/lang/String.equals"), forwarder[1]);
      byte[] rewritten = transformer.transform(null, forwarder[1], null, null, original);
      assertNotNull(rewritten, forwarder[1]);
      List<String> calls = calls(rewritten);
      assertFalse(calls.contains("java/lang/String.equals"), forwarder[1]);
      assertTrue(calls.contains("org/metope/app/launch/MpjOutputLines.equalsUnlessBlank"),
          forwarder[1]);
    }
  }

  /** Negative control: MPJ's other classes, and Metope's, are left as they are. */
  @Test
  void givenAnotherClass_thenNothingIsRewritten() throws IOException {
    byte[] starter = mpjClass("starter.jar", "runtime/starter/MPJRun");
    assertNull(new MpjOutputTransformer().transform(null, "runtime/starter/MPJRun", null, null,
        starter));
  }

  @Test
  void givenABlankLine_thenItIsNeverEqualToTheEmptyString() {
    assertFalse(MpjOutputLines.equalsUnlessBlank("", ""));
    assertTrue(MpjOutputLines.equalsUnlessBlank("-cp", "-cp"));
    assertFalse(MpjOutputLines.equalsUnlessBlank("-cp", "-np"));
    assertEquals("x".equals(null), MpjOutputLines.equalsUnlessBlank("x", null));
  }
}
