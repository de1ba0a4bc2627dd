package org.metope.app.launch;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites how MPJ Express 0.44 finds and offers this host's address, in MPJ's classes ({@code
 * runtime.*}, {@code xdev.*}, {@code mpi.MPI}). MPJ has no setting for either: it opens its server
 * sockets (daemon, port manager, mpjrun's server, niodev's two channels per rank) on every
 * interface, and it names this host by {@code InetAddress.getLocalHost()}, the host name, which
 * other hosts resolve, so two hosts with one name cannot find each other.
 *
 * <p><b>Loopback</b> (single-host runs) rewrites three calls:
 *
 * <ul>
 *   <li>{@code new ServerSocket(port)} becomes {@code new ServerSocket(port, 50, loopback)};
 *   <li>{@code serverSocket.bind(address)} binds the loopback address at the address's port;
 *   <li>{@code InetAddress.getLocalHost()} becomes {@code InetAddress.getLoopbackAddress()}, so
 *       the address MPJ advertises for this host is the one it listens on.
 * </ul>
 *
 * <p><b>Cluster</b> rewrites only {@code InetAddress.getLocalHost()}, to {@link
 * ClusterAddress#local()}: this host's address on the cluster's network, named by its IP, so
 * every host is known by an address instead of a name.
 *
 * <p>The rewritten calls leave the operand stack as the originals do and add no branches, so the
 * methods' stack map frames stay valid.
 */
final class MpjAddressTransformer extends CallRewritingTransformer {
  private static final String SERVER_SOCKET = "java/net/ServerSocket";
  private static final String INET_ADDRESS = "java/net/InetAddress";
  private static final String SOCKET_ADDRESS = "java/net/InetSocketAddress";
  private static final int BACKLOG = 50;
  private static final String CLUSTER_ADDRESS = "org/metope/app/launch/ClusterAddress";

  private final boolean loopback;

  /** Loopback rewriting when {@code loopback}, else the cluster rewriting. */
  MpjAddressTransformer(boolean loopback) {
    this.loopback = loopback;
  }

  @Override
  boolean covers(String className) {
    return className.startsWith("runtime/") || className.startsWith("xdev/")
        || className.equals("mpi/MPI");
  }

  @Override
  MethodVisitor rewriter(MethodVisitor next, boolean[] changed) {
    return new Rewriter(next, changed, loopback);
  }

  /** Rewrites the three calls in one method. */
  private static final class Rewriter extends MethodVisitor {
    private final boolean[] changed;
    private final boolean loopback;

    Rewriter(MethodVisitor next, boolean[] changed, boolean loopback) {
      super(Opcodes.ASM9, next);
      this.changed = changed;
      this.loopback = loopback;
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
        boolean isInterface) {
      if (!loopback && opcode == Opcodes.INVOKESTATIC && owner.equals(INET_ADDRESS)
          && name.equals("getLocalHost")) {
        changed[0] = true;
        super.visitMethodInsn(Opcodes.INVOKESTATIC, CLUSTER_ADDRESS, "local",
            "()L" + INET_ADDRESS + ";", false);
      } else if (!loopback) {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      } else if (opcode == Opcodes.INVOKESPECIAL && owner.equals(SERVER_SOCKET)
          && name.equals("<init>") && descriptor.equals("(I)V")) {
        changed[0] = true;
        super.visitIntInsn(Opcodes.BIPUSH, BACKLOG);
        loopback();
        super.visitMethodInsn(opcode, owner, name, "(IIL" + INET_ADDRESS + ";)V", false);
      } else if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals(SERVER_SOCKET)
          && name.equals("bind") && descriptor.equals("(Ljava/net/SocketAddress;)V")) {
        changed[0] = true;
        loopbackAtSamePort();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      } else if (opcode == Opcodes.INVOKESTATIC && owner.equals(INET_ADDRESS)
          && name.equals("getLocalHost")) {
        changed[0] = true;
        loopback();
      } else {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      }
    }

    private void loopback() {
      super.visitMethodInsn(Opcodes.INVOKESTATIC, INET_ADDRESS, "getLoopbackAddress",
          "()L" + INET_ADDRESS + ";", false);
    }

    /** [address] becomes [new InetSocketAddress(loopback, ((InetSocketAddress) address).port)]. */
    private void loopbackAtSamePort() {
      super.visitTypeInsn(Opcodes.CHECKCAST, SOCKET_ADDRESS);
      super.visitMethodInsn(Opcodes.INVOKEVIRTUAL, SOCKET_ADDRESS, "getPort", "()I", false);
      super.visitTypeInsn(Opcodes.NEW, SOCKET_ADDRESS);
      super.visitInsn(Opcodes.DUP_X1);
      super.visitInsn(Opcodes.SWAP);
      loopback();
      super.visitInsn(Opcodes.SWAP);
      super.visitMethodInsn(Opcodes.INVOKESPECIAL, SOCKET_ADDRESS, "<init>",
          "(L" + INET_ADDRESS + ";I)V", false);
    }
  }
}
