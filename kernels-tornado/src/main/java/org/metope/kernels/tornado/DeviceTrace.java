package org.metope.kernels.tornado;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes that crossed between host and device, per name (an arena, or a kind of launch), since the
 * last {@link #endStage}; with
 * the switch on ({@code METOPE_DEVICE_TRACE=1} in the environment, see {@link #fromEnvironment}),
 * {@code endStage} prints one line per stage:
 *
 * <pre>
 *   device trace: cycle=3 stage=1 toDevice=1638400 toHost=204800 (LOAD: 819200/102400, UNLOAD: 819200/102400)
 * </pre>
 *
 * followed by {@code plans made=N} when the resident TornadoVM backend made execution plans in
 * the stage (each compiles its kernels again).
 */
public final class DeviceTrace {
  /** Environment variable that turns the printing on. */
  public static final String SWITCH = "METOPE_DEVICE_TRACE";

  private final PrintStream out;
  private final Map<String, long[]> bytes = new TreeMap<>();
  private long totalToDevice;
  private long totalToHost;
  /** TornadoVM execution plans made since the last {@link #endStage} (each compiles its tasks). */
  private int plans;

  /** A trace that prints to {@code out}, or counts silently when {@code out} is null. */
  public DeviceTrace(PrintStream out) {
    this.out = out;
  }

  /** A trace printing to standard error when {@value #SWITCH} is set to 1, else silent. */
  public static DeviceTrace fromEnvironment() {
    return new DeviceTrace("1".equals(System.getenv(SWITCH)) ? System.err : null);
  }

  synchronized void toDevice(String arena, long n) {
    bytes.computeIfAbsent(arena, a -> new long[2])[0] += n;
    totalToDevice += n;
  }

  synchronized void toHost(String arena, long n) {
    bytes.computeIfAbsent(arena, a -> new long[2])[1] += n;
    totalToHost += n;
  }

  /** An execution plan was made (its kernels will be compiled as its graphs first run). */
  synchronized void planMade() {
    plans++;
  }

  /** Bytes to the device since the last {@link #endStage}. */
  public synchronized long stageToDevice() {
    long n = 0;
    for (long[] b : bytes.values()) {
      n += b[0];
    }
    return n;
  }

  /** Bytes to the host since the last {@link #endStage}. */
  public synchronized long stageToHost() {
    long n = 0;
    for (long[] b : bytes.values()) {
      n += b[1];
    }
    return n;
  }

  /** Bytes to the device since the trace began. */
  public synchronized long totalToDevice() {
    return totalToDevice;
  }

  /** Bytes to the host since the trace began. */
  public synchronized long totalToHost() {
    return totalToHost;
  }

  /** Prints the stage's line when the switch is on, and starts counting the next stage. */
  public synchronized void endStage(int cycle, int stage) {
    if (out != null) {
      StringBuilder line = new StringBuilder("device trace: cycle=").append(cycle)
          .append(" stage=").append(stage)
          .append(" toDevice=").append(stageToDevice()).append(" toHost=").append(stageToHost())
          .append(" (");
      String separator = "";
      for (Map.Entry<String, long[]> e : bytes.entrySet()) {
        line.append(separator).append(e.getKey()).append(": ").append(e.getValue()[0])
            .append('/').append(e.getValue()[1]);
        separator = ", ";
      }
      line.append(')');
      if (plans > 0) {
        line.append(" plans made=").append(plans);
      }
      out.println(line);
    }
    plans = 0;
    for (long[] b : bytes.values()) {
      b[0] = 0;
      b[1] = 0;
    }
  }
}
