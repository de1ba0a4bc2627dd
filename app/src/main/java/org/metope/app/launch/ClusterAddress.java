package org.metope.app.launch;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * This host's address on the cluster's network ({@code network=A.B.C.D/N} of {@link RunAgent}),
 * which MPJ Express takes as its own address in place of {@code InetAddress.getLocalHost()}: the
 * first IPv4 address of an interface inside that network, named by its IP so that no host name is
 * ever resolved. Hosts that share a host name, or whose names resolve elsewhere, then still find
 * each other.
 */
public final class ClusterAddress {
  private static volatile InetAddress local;

  private ClusterAddress() {}

  /** The address chosen by {@link #choose}; the loopback address when none was chosen. */
  public static InetAddress local() {
    InetAddress chosen = local;
    return chosen != null ? chosen : InetAddress.getLoopbackAddress();
  }

  /**
   * Chooses this host's address inside {@code cidr} (e.g. {@code 10.1.0.0/16}).
   *
   * @throws IllegalArgumentException when {@code cidr} is malformed or no interface has an address
   *     inside it, with a message saying which addresses this host has
   */
  static void choose(String cidr) {
    int slash = cidr.indexOf('/');
    byte[] network;
    int bits;
    try {
      network = InetAddress.getByName(cidr.substring(0, Math.max(slash, 0))).getAddress();
      bits = Integer.parseInt(cidr.substring(slash + 1));
    } catch (UnknownHostException | RuntimeException e) {
      throw new IllegalArgumentException("network=" + cidr + ": expected an IPv4 network such as"
          + " 10.1.0.0/16");
    }
    if (slash < 0 || network.length != 4 || bits < 0 || bits > 32) {
      throw new IllegalArgumentException("network=" + cidr + ": expected an IPv4 network such as"
          + " 10.1.0.0/16");
    }
    List<String> seen = new ArrayList<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          byte[] bytes = address.getAddress();
          seen.add(address.getHostAddress());
          if (bytes.length == 4 && inside(bytes, network, bits)) {
            local = InetAddress.getByAddress(address.getHostAddress(), bytes);
            return;
          }
        }
      }
    } catch (SocketException | UnknownHostException e) {
      throw new IllegalArgumentException("network=" + cidr + ": cannot list this host's"
          + " addresses (" + e.getMessage() + ")");
    }
    throw new IllegalArgumentException("network=" + cidr + ": this host has no address in it"
        + " (its addresses: " + String.join(", ", seen) + ")");
  }

  private static boolean inside(byte[] address, byte[] network, int bits) {
    int a = toInt(address);
    int n = toInt(network);
    int mask = bits == 0 ? 0 : -1 << (32 - bits);
    return (a & mask) == (n & mask);
  }

  private static int toInt(byte[] b) {
    return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
  }
}
