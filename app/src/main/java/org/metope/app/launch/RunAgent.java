package org.metope.app.launch;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarFile;

/**
 * The Java agent the {@code ./metope} launcher puts on every JVM of an MPJ run (mpjrun, the MPJ
 * daemon, each rank process) so that the launcher owns the run:
 *
 * <pre>
 * java -javaagent:app-agent.jar=launcher=PID,runDir=DIR[,loopback=true] ...
 * </pre>
 *
 * <ul>
 *   <li>{@code launcher=PID,runDir=DIR}: a {@link LauncherWatchdog} ends this JVM, with every
 *       process it started, and removes the run directory {@code DIR} as soon as the launcher
 *       process {@code PID} is gone, however it ended: a killed launcher ({@code kill -9}) can
 *       clean up nothing, so its children must notice.
 *   <li>{@code loopback=true} (single-host runs): MPJ Express's server sockets bind the loopback
 *       address only and MPJ takes it as this host's address ({@link MpjAddressTransformer}); MPJ
 *       has no setting for the address its daemon and ranks listen on.
 *   <li>{@code network=A.B.C.D/N} (clusters, on every JVM of the run on every host): MPJ takes
 *       this host's address in that network as its own, by IP ({@link ClusterAddress}), so hosts
 *       that share a host name still find each other. A host without an address in the network
 *       stops its JVM at start with one line saying so.
 *   <li>{@code share=JAR:JAR:...} (the rank JVM of a multicore run): the jars join the JVM's
 *       class path. MPJ's multicore device loads the application once per rank, each rank with a
 *       class loader of its own over the whole class path, but such a loader asks the JVM's class
 *       path first: the shared jars' classes are then loaded once for all ranks, and the JIT
 *       compiles each hot method once. Only the MPJ backend (which links MPJ's per-rank classes)
 *       stays out of them.
 * </ul>
 *
 * <p>Always: the blank lines of the ranks' output reach the launcher ({@link
 * MpjOutputTransformer}); MPJ's forwarders drop them.
 */
public final class RunAgent {
  private RunAgent() {}

  /** Agent entry: {@code args} is the comma-separated {@code key=value} list above. */
  public static void premain(String args, Instrumentation instrumentation) {
    Map<String, String> options = parse(args);
    String shared = options.get("share");
    if (shared != null) {
      share(instrumentation, shared);
    }
    instrumentation.addTransformer(new MpjOutputTransformer());
    if (Boolean.parseBoolean(options.get("loopback"))) {
      instrumentation.addTransformer(new MpjAddressTransformer(true));
    } else if (options.containsKey("network")) {
      try {
        ClusterAddress.choose(options.get("network"));
      } catch (IllegalArgumentException e) {
        System.err.println("metope agent: " + e.getMessage());
        Runtime.getRuntime().halt(2);
      }
      instrumentation.addTransformer(new MpjAddressTransformer(false));
    }
    String launcher = options.get("launcher");
    if (launcher != null) {
      String runDir = options.get("runDir");
      LauncherWatchdog.start(Long.parseLong(launcher), runDir == null ? null : Path.of(runDir));
    }
  }

  private static void share(Instrumentation instrumentation, String jars) {
    for (String jar : jars.split(":")) {
      try {
        instrumentation.appendToSystemClassLoaderSearch(new JarFile(jar));
      } catch (IOException e) {
        System.err.println("metope agent: cannot share the classes of " + jar + " among the ranks ("
            + e.getMessage() + ")");
        Runtime.getRuntime().halt(2);
      }
    }
  }

  static Map<String, String> parse(String args) {
    Map<String, String> options = new HashMap<>();
    if (args == null || args.isBlank()) {
      return options;
    }
    for (String entry : args.split(",")) {
      int eq = entry.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("agent option without a value: option=" + entry);
      }
      options.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    return options;
  }
}
