package org.metope.test.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.test.ProcessResult;
import org.metope.comm.ProgressDeadline;

/**
 * A real two-host MPJ run through docs/CLUSTER.md's cluster route: two Linux network namespaces joined
 * by a veth pair (a private /30 of 10.231.0.0/16 that exists only between them), each with its
 * own host name ({@code unshare --uts}) and its own {@code /etc/hosts} ({@code ip netns exec} puts
 * {@code /etc/netns/NS/hosts} in its place), an MPJ daemon in each, and {@code mpjrun -np 2 -dev
 * niodev} started on the first: the 2-rank history equals the 1-rank run's. Once with distinct
 * host names (docs/CLUSTER.md's recipe as written), once with one host name for both hosts, which MPJ
 * alone cannot do and the launcher's agent with {@code network=} fixes.
 *
 * <p>Needs root and {@code ip netns}; skipped otherwise, with the reason. Every process runs under
 * a time limit, and the namespaces are deleted whatever happens.
 */
class MultiHostTest {
  private static final long RUN_LIMIT_SECONDS = 120;
  private static final long DAEMON_LIMIT_SECONDS = 30;
  private static final int DAEMON_PORT = 40055;
  private static final String DECK_OVERRIDE = "parthenon/time/nlim=5";
  /**
   * How long a rank may make no progress once the link is down (it then only waits for the stall
   * timeout, 3 s, and exits), measured by its CPU time, not the clock ({@link ProgressDeadline}).
   */
  private static final long LINK_DOWN_LIMIT_SECONDS = 30;

  @TempDir Path tmp;

  @BeforeAll
  static void needsRootAndNetworkNamespaces() throws Exception {
    LauncherRun.requireMpj();
    String user = System.getProperty("user.name");
    boolean root = "root".equals(user);
    if (!root) {
      System.out.println("MultiHostTest skipped: needs root to create network namespaces (user "
          + user + ")");
    }
    Assumptions.assumeTrue(root, "needs root to create network namespaces");
    ProcessResult ip = ProcessResult.run(Path.of("."), 30, Map.of(), "ip", "netns", "list");
    if (ip.exitCode() != 0) {
      System.out.println("MultiHostTest skipped: `ip netns` is unavailable: " + ip.output());
    }
    Assumptions.assumeTrue(ip.exitCode() == 0, "`ip netns` is unavailable: " + ip.output());
  }

  @Test
  void givenTwoHostsWithDistinctNames_thenTheReadmeRecipeGivesTheOneRankHistory()
      throws Exception {
    runAcrossTwoHosts("h1", "h2", false);
  }

  @Test
  void givenTwoHostsSharingOneName_thenTheAgentsNetworkOptionGivesTheOneRankHistory()
      throws Exception {
    runAcrossTwoHosts("node", "node", true);
  }

  /**
   * The link between the hosts goes down during a run: every rank ends on its own, non-zero,
   * within the stall timeout (3 s here) and a few seconds, wherever it waits (a boundary exchange
   * or a collective such as the history's allgather), instead of waiting forever.
   */
  @Test
  void givenTheLinkGoesDown_thenEveryRankEndsWithinTheStallTimeout() throws Exception {
    long id = ProcessHandle.current().pid() % 10000 + 20000;
    int subnet = (int) (id % 250);
    Host a = new Host("metope-mh" + id + "a", "mtv" + id + "a", "h1", "10.231." + subnet + ".1");
    Host b = new Host("metope-mh" + id + "b", "mtv" + id + "b", "h2", "10.231." + subnet + ".2");
    Path mpjHome = mpjHome();
    Path status = Files.createDirectories(tmp.resolve("status"));
    List<Process> processes = new ArrayList<>();
    try {
      createHosts(a, b);
      for (Host host : List.of(a, b)) {
        processes.add(startDaemon(host, mpjHome, ""));
      }
      awaitDaemon(a, processes.get(0));
      awaitDaemon(b, processes.get(1));
      Path machines = Files.writeString(tmp.resolve("machines"), a.name + "\n" + b.name + "\n");
      ProcessBuilder starter = new ProcessBuilder(inHost(a, starterCommand(mpjHome, machines,
          tmp.resolve("out"), "", "parthenon/time/nlim=100000000 parthenon/time/tlim=1000"
              + " parthenon/time/recv_bdry_buf_timeout_sec=3")))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("starter.log").toFile());
      starter.environment().put("MPJ_HOME", mpjHome.toString());
      processes.add(starter.start());
      String stalled = ProgressDeadline.until(processes.stream().map(Process::toHandle).toList(),
          Duration.ofSeconds(RUN_LIMIT_SECONDS), () -> Files.exists(status.resolve("rank-0.progress"))
              && Files.exists(status.resolve("rank-1.progress")));
      assertTrue(stalled == null, "the ranks did not start communicating (" + stalled + "): "
          + Files.readString(tmp.resolve("starter.log")));
      Thread.sleep(1000);
      sh("ip -n " + a.namespace + " link set " + a.veth + " down");
      for (int rank = 0; rank < 2; rank++) {
        long pid = Long.parseLong(Files.readString(status.resolve("rank-" + rank + ".pid"))
            .strip());
        ProcessHandle process = ProcessHandle.of(pid).orElse(null);
        String hung = process == null ? null
            : ProgressDeadline.await(process, Duration.ofSeconds(LINK_DOWN_LIMIT_SECONDS));
        String report = Files.exists(status.resolve("rank-" + rank + ".status"))
            ? Files.readString(status.resolve("rank-" + rank + ".status")) : "(no status)";
        assertTrue(hung == null, "rank " + rank + " still runs after the link went down ("
            + hung + "): " + report);
        assertTrue(report.contains("exit=") && !report.contains("exit=0"),
            "rank " + rank + " ended non-zero on its own: " + report);
      }
    } finally {
      for (Process p : processes) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      deleteHosts(a, b);
    }
  }

  /**
   * Sets up the two hosts, runs the 2-rank deck across them and compares its history with a
   * 1-rank run's. With {@code byAddress}, the machines file lists addresses and every JVM gets
   * the agent with {@code network=}; otherwise it lists host names, as docs/CLUSTER.md's recipe does.
   */
  private void runAcrossTwoHosts(String nameA, String nameB, boolean byAddress) throws Exception {
    long id = ProcessHandle.current().pid() % 10000 + (byAddress ? 10000 : 0);
    int subnet = (int) (id % 250);
    Host a = new Host("metope-mh" + id + "a", "mtv" + id + "a", nameA, "10.231." + subnet + ".1");
    Host b = new Host("metope-mh" + id + "b", "mtv" + id + "b", nameB, "10.231." + subnet + ".2");
    String network = "10.231." + subnet + ".0/30";
    Path mpjHome = mpjHome();
    Files.createDirectories(tmp.resolve("status"));
    String agent = byAddress ? "-javaagent:" + LauncherRun.root()
        .resolve("app/target/app-0.1.0-SNAPSHOT-agent.jar") + "=network=" + network
        : "";
    List<Process> daemons = new ArrayList<>();
    try {
      createHosts(a, b);
      for (Host host : List.of(a, b)) {
        daemons.add(startDaemon(host, mpjHome, agent));
      }
      awaitDaemon(a, daemons.get(0));
      awaitDaemon(b, daemons.get(1));
      Path machines = Files.writeString(tmp.resolve("machines"), byAddress
          ? a.address + "\n" + b.address + "\n" : a.name + "\n" + b.name + "\n");
      Path twoHosts = tmp.resolve("two-hosts");
      ProcessResult run = onHost(a, RUN_LIMIT_SECONDS, Map.of("MPJ_HOME", mpjHome.toString()),
          starterCommand(mpjHome, machines, twoHosts, agent, DECK_OVERRIDE));
      assertEquals(0, run.exitCode(), run.output());
      for (int rank = 0; rank < 2; rank++) {
        String status = Files.readString(tmp.resolve("status/rank-" + rank + ".status"));
        assertTrue(status.contains("exit=0"), "rank " + rank + ": " + status);
      }
      assertTrue(run.output().contains("Stopping Process <1> on <"
          + (byAddress ? b.address : b.name) + ">"), "rank 1 ran on the second host: "
          + run.output());

      Path oneRank = tmp.resolve("one-rank");
      LauncherRun serial = LauncherRun.run(RUN_LIMIT_SECONDS, Map.of(), "-i", deck(), "-d",
          oneRank.toString(), DECK_OVERRIDE);
      assertEquals(0, serial.exitCode(), serial.output());
      String hst = "advection_2d.out0.hst";
      assertEquals(Files.readString(oneRank.resolve(hst)), Files.readString(twoHosts.resolve(hst)),
          "history on two hosts");
    } finally {
      for (Process daemon : daemons) {
        daemon.descendants().forEach(ProcessHandle::destroyForcibly);
        daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      deleteHosts(a, b);
    }
  }

  /** One network namespace standing for a host: its veth end, host name and address. */
  private record Host(String namespace, String veth, String name, String address) {}

  private static String deck() {
    return LauncherRun.root().resolve("inputs/advection_2d.in").toString();
  }

  /** docs/CLUSTER.md's step 1: a private MPJ_HOME with MPJ's jars and the four they need. */
  private Path mpjHome() throws IOException {
    Path home = tmp.resolve("mpj");
    Path lib = Files.createDirectories(home.resolve("lib"));
    Files.createDirectories(home.resolve("logs"));
    Files.createDirectories(home.resolve("conf"));
    try (Stream<Path> jars = Files.list(Path.of("/usr/share/mpj/lib"))) {
      for (Path jar : jars.filter(j -> j.toString().endsWith(".jar")).toList()) {
        Files.copy(jar.toRealPath(), lib.resolve(jar.getFileName()));
      }
    }
    for (String dep : List.of("log4j-1.2", "commons-cli", "commons-codec", "commons-io")) {
      Path jar = Path.of("/usr/share/java", dep + ".jar");
      Files.copy(jar.toRealPath(), lib.resolve(jar.getFileName()));
    }
    Files.copy(Path.of("/etc/mpj/mpjexpress.conf"), home.resolve("conf/mpjexpress.conf"));
    return home;
  }

  private void createHosts(Host a, Host b) throws Exception {
    sh("ip netns add " + a.namespace + " && ip netns add " + b.namespace
        + " && ip link add " + a.veth + " type veth peer name " + b.veth);
    for (Host h : List.of(a, b)) {
      sh("ip link set " + h.veth + " netns " + h.namespace
          + " && ip -n " + h.namespace + " addr add " + h.address + "/30 dev " + h.veth
          + " && ip -n " + h.namespace + " link set " + h.veth + " up"
          + " && ip -n " + h.namespace + " link set lo up");
      Path etc = Files.createDirectories(Path.of("/etc/netns", h.namespace));
      String hosts = "127.0.0.1 localhost\n" + (a.name.equals(b.name)
          ? h.address + " " + h.name + "\n"
          : a.address + " " + a.name + "\n" + b.address + " " + b.name + "\n");
      Files.writeString(etc.resolve("hosts"), hosts);
    }
  }

  private static void deleteHosts(Host a, Host b) throws Exception {
    for (Host h : List.of(a, b)) {
      ProcessResult.run(Path.of("."), 30, Map.of(), "ip", "netns", "del", h.namespace);
      Path etc = Path.of("/etc/netns", h.namespace);
      Files.deleteIfExists(etc.resolve("hosts"));
      Files.deleteIfExists(etc);
    }
  }

  private static void sh(String command) throws Exception {
    ProcessResult r = ProcessResult.run(Path.of("."), 30, Map.of(), "sh", "-c", command);
    assertEquals(0, r.exitCode(), command + ": " + r.output());
  }

  /** {@code command} inside {@code host}'s namespace and under its host name. */
  private static List<String> inHost(Host host, String command) {
    return List.of("ip", "netns", "exec", host.namespace, "unshare", "--uts", "sh", "-c",
        "hostname " + host.name + " && exec " + command);
  }

  private static ProcessResult onHost(Host host, long limitSeconds, Map<String, String> env,
      String command) throws Exception {
    return ProcessResult.run(Path.of("."), limitSeconds, env,
        inHost(host, command).toArray(new String[0]));
  }

  /** docs/CLUSTER.md's step 2 on {@code host}. */
  private Process startDaemon(Host host, Path mpjHome, String agent) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(inHost(host, java + " " + agent + " -cp "
        + mpjHome.resolve("lib/daemon.jar") + " runtime.daemon.MPJDaemon " + DAEMON_PORT))
        .redirectErrorStream(true).redirectOutput(tmp.resolve(host.namespace + ".log").toFile());
    pb.environment().put("MPJ_HOME", mpjHome.toString());
    return pb.start();
  }

  /** Waits until {@code daemon} listens on {@code host}, for as long as it makes progress. */
  private void awaitDaemon(Host host, Process daemon) throws Exception {
    String stalled = ProgressDeadline.until(List.of(daemon.toHandle()),
        Duration.ofSeconds(DAEMON_LIMIT_SECONDS), () -> {
          try {
            return ProcessResult.run(Path.of("."), 30, Map.of(), "ip", "netns", "exec",
                host.namespace, "ss", "-ltnH").output().contains(":" + DAEMON_PORT + " ");
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
          }
        });
    if (stalled != null) {
      throw new AssertionError("the MPJ daemon on " + host.name + " did not listen (" + stalled
          + "): " + Files.readString(tmp.resolve(host.namespace + ".log")));
    }
  }

  /** docs/CLUSTER.md's step 3: mpjrun on the head node. */
  private String starterCommand(Path mpjHome, Path machines, Path out, String agent,
      String overrides) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cp = new ArrayList<>();
    cp.add(LauncherRun.root().resolve("examples/target/examples-0.1.0-SNAPSHOT.jar").toString());
    try (Stream<Path> jars = Files.list(LauncherRun.root().resolve("examples/target/lib"))) {
      jars.map(Path::toString).filter(j -> j.endsWith(".jar")).sorted().forEach(cp::add);
    }
    return java + " " + agent + " -jar " + mpjHome.resolve("lib/starter.jar") + " -np 2 -dev niodev"
        + " -machinesfile " + machines + " -Dmetope.rank.statusDir=" + tmp.resolve("status")
        + " " + agent + " -cp " + String.join(":", cp) + " org.metope.comm.mpj.MpjRankMain"
        + " org.metope.app.Metope -i " + deck() + " -d " + out + " " + overrides;
  }
}
