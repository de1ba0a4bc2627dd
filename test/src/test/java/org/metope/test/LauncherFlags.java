package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The JVM flags the launcher gives a run, read back with {@code -XX:+PrintFlagsFinal}. */
final class LauncherFlags {
  private static final Pattern FLAG =
      Pattern.compile("^\\s*\\S+\\s+(\\w+)\\s+=\\s+(\\S+)", Pattern.MULTILINE);

  private LauncherFlags() {}

  /**
   * The final JVM flags of a one-cycle run under {@code taskset -c cpus}, with {@code env} and
   * the launcher arguments {@code args} (e.g. {@code -np 2 -i DECK}); where several JVMs print
   * them (the launch check of a multi-rank run, then the ranks' JVM), the last JVM's.
   */
  static Map<String, String> of(Path tmp, Map<String, String> env, String cpus, List<String> args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("taskset", "-c", cpus,
        RepoPaths.launcher().toString()));
    command.addAll(args);
    command.addAll(List.of("parthenon/time/nlim=1", "-d",
        Files.createTempDirectory(tmp, "run").toString()));
    Map<String, String> all = new HashMap<>(env);
    all.put("METOPE_SKIP_BUILD", "1");
    all.put("METOPE_JAVA_OPTS", "-XX:+PrintFlagsFinal");
    ProcessResult r = ProcessResult.run(Path.of("."), 120, all, command.toArray(new String[0]));
    assertEquals(0, r.exitCode(), r.output());
    Map<String, String> flags = new HashMap<>();
    Matcher m = FLAG.matcher(r.output());
    while (m.find()) {
      flags.put(m.group(1), m.group(2));
    }
    assertTrue(flags.containsKey("Tier4InvocationThreshold"), r.output());
    return flags;
  }
}
