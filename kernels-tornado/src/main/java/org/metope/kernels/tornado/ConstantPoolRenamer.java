package org.metope.kernels.tornado;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Renames classes and methods in a class file by rewriting the UTF-8 entries of its constant pool,
 * which hold every class name, member name and descriptor the file uses; all other entries and
 * everything after the pool (fields, methods, their code and attributes) refer to entries by
 * index, so they are copied unchanged. Class names are replaced wherever they occur in an entry
 * ({@code a/B} also in {@code La/B;} descriptors), member names only where an entry is exactly the
 * name, so a name must be one the file uses for nothing else. Only the JVM's own format is read,
 * so it works for any class file version (JVMS 4.4).
 */
final class ConstantPoolRenamer {
  private static final int UTF8 = 1;
  private static final int LONG = 5;
  private static final int DOUBLE = 6;

  private ConstantPoolRenamer() {}

  /**
   * {@code classFile} with class internal names {@code classes} (old to new) replaced within every
   * UTF-8 entry, and entries equal to a key of {@code members} replaced whole.
   */
  static byte[] rename(byte[] classFile, Map<String, String> classes,
      Map<String, String> members) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(in.readInt()); // magic
      out.writeInt(in.readInt()); // minor and major version
      int count = in.readUnsignedShort();
      out.writeShort(count);
      for (int index = 1; index < count; index++) {
        int tag = in.readUnsignedByte();
        out.writeByte(tag);
        if (tag == UTF8) {
          out.writeUTF(renamed(in.readUTF(), classes, members));
        } else {
          byte[] body = new byte[size(tag)];
          in.readFully(body);
          out.write(body);
          if (tag == LONG || tag == DOUBLE) {
            index++; // these take two slots
          }
        }
      }
      out.write(in.readAllBytes());
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("a launcher template's class file is malformed", e);
    }
  }

  private static String renamed(String entry, Map<String, String> classes,
      Map<String, String> members) {
    String member = members.get(entry);
    if (member != null) {
      return member;
    }
    // one pass, so that a new name is never renamed again
    StringBuilder result = new StringBuilder(entry.length());
    int at = 0;
    scan:
    while (at < entry.length()) {
      for (Map.Entry<String, String> c : classes.entrySet()) {
        if (entry.startsWith(c.getKey(), at)) {
          result.append(c.getValue());
          at += c.getKey().length();
          continue scan;
        }
      }
      result.append(entry.charAt(at++));
    }
    return result.toString();
  }

  /** Bytes after the tag of a constant pool entry other than UTF-8 (JVMS table 4.4-B). */
  private static int size(int tag) {
    return switch (tag) {
      case 7, 8, 16, 19, 20 -> 2; // Class, String, MethodType, Module, Package
      case 15 -> 3; // MethodHandle
      case 3, 4, 9, 10, 11, 12, 17, 18 -> 4; // Integer, Float, refs, NameAndType, (Invoke)Dynamic
      case LONG, DOUBLE -> 8;
      default -> throw new IllegalStateException("unknown constant pool tag: tag=" + tag);
    };
  }
}
