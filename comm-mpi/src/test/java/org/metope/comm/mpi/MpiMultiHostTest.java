package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MPI device across two hosts: two Linux network namespaces joined by a veth pair (a private
 * /30 of 10.232.0.0/16 that exists only between them), each with its own host name ({@code
 * unshare --uts}), and {@code mpirun} started in the first with a hostfile of the two addresses.
 * Open MPI reaches the second host through {@code plm_rsh_agent}, a script that runs its daemon
 * there with {@code ip netns exec} where a cluster would use ssh; ranks talk over Open MPI's TCP
 * transport ({@code --mca btl tcp,self}, {@code btl_tcp_if_include} the pair's subnet). A deck on
 * the two hosts writes the one-rank history byte for byte; a link cut ends every rank and mpirun
 * with rank 0's one line.
 *
 * <p>Needs root and {@code ip netns}; skipped otherwise, with the reason. The namespaces are
 * deleted whatever happens.
 */
class MpiMultiHostTest {
  private static final long RUN_LIMIT_SECONDS = 180;
  private static final String HISTORY = "advection_2d.out0.hst";
  private static final int STALL_SECONDS = 3;
  /** {@code MpiFailures}' fallback: a failing rank other than 0 aborts itself after this long. */
  private static final int FALLBACK_SECONDS = 10;
  /**
   * Retransmissions before a host's kernel gives up on a connection with unacknowledged data
   * ({@code net.ipv4.tcp_retries2}, set in both namespaces): about 3 s instead of Linux's 15
   * (about 15 minutes). Keepalives end a connection only while it is idle; once mpirun has sent
   * the other host's daemon its kill order across the cut link, only this limit ends it.
   */
  private static final int TCP_RETRIES = 3;
  /** Seconds those retransmissions take: 0.2 s doubling, 0.2 * (2^4 - 1). */
  private static final int RETRANSMIT_SECONDS = 3;
  /** History lines a run has written before the link is cut: both ranks are exchanging by then. */
  private static final int LINES_BEFORE_CUT = 20;

  @TempDir Path tmp;

  @BeforeAll
  static void needsRootAndNetworkNamespaces() throws Exception {
    MpiLauncherRun.requirePrerequisites();
    String user = System.getProperty("user.name");
    if (!"root".equals(user)) {
      System.out.println("MpiMultiHostTest skipped: needs root to create network namespaces (user "
          + user + ")");
    }
    Assumptions.assumeTrue("root".equals(user), "needs root to create network namespaces");
    MpiLauncherRun ip = MpiLauncherRun.run(30, Map.of(), List.of("ip", "netns", "list"));
    if (ip.exitCode() != 0) {
      System.out.println("MpiMultiHostTest skipped: `ip netns` is unavailable: " + ip.output());
    }
    Assumptions.assumeTrue(ip.exitCode() == 0, "`ip netns` is unavailable: " + ip.output());
  }

  @Test
  void givenTwoHostsOverTcp_thenTwoRanksWriteTheOneRankHistory() throws Exception {
    Pair pair = Pair.create(tmp, 0);
    try {
      Path two = tmp.resolve("two-hosts");
      MpiLauncherRun run = MpiLauncherRun.run(RUN_LIMIT_SECONDS, Map.of(),
          pair.mpirun(List.of("--display-map"), two, "parthenon/time/nlim=5"));
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().matches("(?s).*Data for node: " + pair.b.address.replace(".", "\\.")
          + "\\s[^\\n]*\\n\\s*Process OMPI[^\\n]*Process rank: 1 .*"),
          "rank 1 ran on the second host: " + run.output());
      Path one = tmp.resolve("one-rank");
      MpiLauncherRun serial = MpiLauncherRun.metope(RUN_LIMIT_SECONDS, "-i", deck(), "-d",
          one.toString(), "parthenon/time/nlim=5");
      assertEquals(0, serial.exitCode(), serial.output());
      String expected = Files.readString(one.resolve(HISTORY));
      assertTrue(expected.lines().count() > 3, expected);
      assertEquals(expected, Files.readString(two.resolve(HISTORY)), "history on two hosts");
    } finally {
      pair.delete();
    }
  }

  /**
   * The link goes down while both ranks exchange: rank 0 stalls (in a boundary exchange or a
   * collective, whichever it is in), prints one line naming the stall and aborts; rank 1, whose
   * line cannot cross the cut link, aborts itself after MpiFailures' fallback; Open MPI's
   * keepalives, or the retransmission limit once a message is in flight, end mpirun and the second
   * host's daemon. The deadline is
   * derived from this run's own pace (the time it took to start and write its first history
   * lines, on a busy machine much longer than on a quiet one) plus the stall and fallback times.
   */
  @Test
  void givenTheLinkGoesDown_thenEveryRankEndsWithOneLine() throws Exception {
    Pair pair = Pair.create(tmp, 1);
    Process mpirun = null;
    try {
      Path out = tmp.resolve("cut");
      Path log = tmp.resolve("cut.log");
      List<String> keepalive = List.of("--mca", "oob_tcp_keepalive_time", "1", "--mca",
          "oob_tcp_keepalive_intvl", "1", "--mca", "oob_tcp_keepalive_probes", "3");
      ProcessBuilder pb = new ProcessBuilder(pair.mpirun(keepalive, out,
          "parthenon/time/nlim=100000000", "parthenon/time/tlim=1000",
          "parthenon/time/recv_bdry_buf_timeout_sec=" + STALL_SECONDS))
          .redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("METOPE_SKIP_BUILD", "1");
      long start = System.nanoTime();
      mpirun = pb.start();
      Path history = out.resolve(HISTORY);
      while (!(Files.exists(history) && Files.readAllLines(history).size() >= LINES_BEFORE_CUT)) {
        assertTrue(mpirun.isAlive(), "the run ended before the cut: " + Files.readString(log));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(RUN_LIMIT_SECONDS),
            "no history within " + RUN_LIMIT_SECONDS + " s: " + Files.readString(log));
        Thread.sleep(100);
      }
      long pace = System.nanoTime() - start;
      Pair.sh("ip -n " + pair.a.namespace + " link set " + pair.a.veth + " down");
      long limit = pace + TimeUnit.SECONDS.toNanos(STALL_SECONDS + FALLBACK_SECONDS
          + RETRANSMIT_SECONDS + 5);
      boolean ended = mpirun.waitFor(limit, TimeUnit.NANOSECONDS);
      long left = limit;
      while (ended && left > 0 && !(pair.a.pids().isEmpty() && pair.b.pids().isEmpty())) {
        Thread.sleep(100);
        left -= TimeUnit.MILLISECONDS.toNanos(100);
      }
      String output = Files.readString(log);
      assertTrue(ended, "mpirun still runs " + TimeUnit.NANOSECONDS.toSeconds(limit)
          + " s after the cut: " + output);
      assertTrue(pair.a.pids().isEmpty() && pair.b.pids().isEmpty(), "processes left on the"
          + " hosts: " + pair.a.pids() + " " + pair.b.pids() + ": " + output);
      // mpirun ends with rank 0's abort (1), or, when its keepalives (about 4 s) lose the other
      // host's daemon before rank 0's stall (3 s on a quiet machine) reaches it, with Open MPI's
      // OPAL_ERR_COMM_FAILURE (-51: 205); the run ends with the one line either way.
      int exit = mpirun.exitValue();
      assertTrue(exit == 1 || exit == 205, "exit " + exit + ": " + output);
      List<String> lines = output.lines().filter(l -> l.startsWith("metope: ")).toList();
      assertEquals(1, lines.size(), output);
      assertTrue(lines.get(0).matches("metope: rank 0 failed \\(exit 1\\): .*(no task made "
          + "progress for \\d+ ms|the stall timeout, recv_bdry_buf_timeout_sec).*"), output);
    } finally {
      if (mpirun != null) {
        mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
        mpirun.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      pair.delete();
    }
  }

  private static String deck() {
    return MpiLauncherRun.root().resolve("inputs/advection_2d.in").toString();
  }

  /** One network namespace standing for a host: its veth end, host name and address. */
  private record Host(String namespace, String veth, String address) {
    /** The processes running in this host's namespace. */
    List<String> pids() throws Exception {
      return MpiLauncherRun.run(30, Map.of(), List.of("ip", "netns", "pids", namespace)).output()
          .lines().filter(l -> !l.isBlank()).toList();
    }
  }

  /** Two hosts joined by a veth pair, with the agent script and hostfile mpirun needs. */
  private record Pair(Host a, Host b, String subnet, Path agent, Path hostfile) {
    static Pair create(Path dir, int test) throws Exception {
      long id = ProcessHandle.current().pid() % 10000 + 10000L * test;
      String net = "10.232." + (ProcessHandle.current().pid() % 125 * 2 + test);
      Host a = new Host("metope-mm" + id + "a", "mmv" + id + "a", net + ".1");
      Host b = new Host("metope-mm" + id + "b", "mmv" + id + "b", net + ".2");
      Path agent = dir.resolve("agent-" + test + ".sh");
      Files.writeString(agent, "#!/bin/sh\n"
          + "# Open MPI's plm_rsh_agent: $1 is a host of the hostfile, the rest its command.\n"
          + "host=\"$1\"; shift\n"
          + "case \"$host\" in\n"
          + "  " + a.address + ") ns=" + a.namespace + " ;;\n"
          + "  " + b.address + ") ns=" + b.namespace + " ;;\n"
          + "  *) echo \"agent: unknown host $host\" >&2; exit 1 ;;\n"
          + "esac\n"
          + "exec ip netns exec \"$ns\" unshare --uts sh -c \"hostname $ns && $*\"\n");
      Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
      Path hostfile = Files.writeString(dir.resolve("hosts-" + test),
          a.address + " slots=1\n" + b.address + " slots=1\n");
      Pair pair = new Pair(a, b, net + ".0/30", agent, hostfile);
      sh("ip netns add " + a.namespace + " && ip netns add " + b.namespace
          + " && ip link add " + a.veth + " type veth peer name " + b.veth);
      for (Host h : List.of(a, b)) {
        sh("ip link set " + h.veth + " netns " + h.namespace
            + " && ip -n " + h.namespace + " addr add " + h.address + "/30 dev " + h.veth
            + " && ip -n " + h.namespace + " link set " + h.veth + " up"
            + " && ip -n " + h.namespace + " link set lo up"
            + " && ip netns exec " + h.namespace + " sysctl -qw net.ipv4.tcp_retries2="
            + TCP_RETRIES);
      }
      return pair;
    }

    /** mpirun of 2 ranks of the deck across the hosts, started inside host a. */
    List<String> mpirun(List<String> options, Path out, String... overrides) {
      List<String> mpirun = new ArrayList<>(List.of("mpirun", "-q", "--allow-run-as-root",
          "-np", "2", "--hostfile", hostfile.toString(), "-x", "METOPE_SKIP_BUILD",
          "--mca", "plm_rsh_agent", agent.toString(), "--mca", "btl", "tcp,self",
          "--mca", "btl_tcp_if_include", subnet, "--mca", "oob_tcp_if_include", subnet));
      mpirun.addAll(options);
      mpirun.addAll(List.of(MpiLauncherRun.root().resolve("metope").toString(), "-i", deck(),
          "-d", out.toString()));
      mpirun.addAll(List.of(overrides));
      List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", a.namespace,
          "unshare", "--uts", "sh", "-c", "hostname " + a.namespace + " && exec \"$@\"",
          "mpirun-on-" + a.namespace));
      command.addAll(mpirun);
      return command;
    }

    void delete() throws Exception {
      for (Host h : List.of(a, b)) {
        for (String pid : h.pids()) {
          ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
        MpiLauncherRun.run(30, Map.of(), List.of("ip", "netns", "del", h.namespace));
      }
    }

    static void sh(String command) throws Exception {
      MpiLauncherRun r = MpiLauncherRun.run(30, Map.of(), List.of("sh", "-c", command));
      assertEquals(0, r.exitCode(), command + ": " + r.output());
    }
  }
}
