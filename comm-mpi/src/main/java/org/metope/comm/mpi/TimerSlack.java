package org.metope.comm.mpi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Linux's timer slack of the calling thread ({@code prctl(PR_SET_TIMERSLACK)}): how late the
 * kernel may end a timed sleep to merge wake-ups, 50 us by default. A rank whose task loop or
 * request waits park for 20 - 50 us between polls slept two to four times that (a park of 20 us
 * took 89 - 92 us at the median with the default slack, 39 - 44 us with 1 us; load 13), and every
 * microsecond overslept after a message arrived is the rank's time lost. {@link MpiRankMain} sets
 * {@value #RANK_NANOS} ns on its main thread before the application starts; threads inherit the
 * slack of the thread that starts them, so task threads get it too. Where there is no {@code
 * prctl} (not Linux) nothing changes.
 */
final class TimerSlack {
  /** The slack of a rank's threads, in nanoseconds. */
  static final long RANK_NANOS = 1_000;
  private static final int PR_SET_TIMERSLACK = 29;
  private static final int PR_GET_TIMERSLACK = 30;
  private static final MethodHandle PRCTL = prctl();

  private TimerSlack() {}

  private static MethodHandle prctl() {
    Linker linker = Linker.nativeLinker();
    Optional<MemorySegment> symbol = linker.defaultLookup().find("prctl");
    return symbol.map(s -> linker.downcallHandle(s,
        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Linker.Option.firstVariadicArg(1)))
        .orElse(null);
  }

  /** Sets the calling thread's slack; false where the system has no such setting. */
  static boolean set(long nanos) {
    return call(PR_SET_TIMERSLACK, nanos) == 0;
  }

  /** The calling thread's slack in nanoseconds, or -1 where the system has no such setting. */
  static long get() {
    return call(PR_GET_TIMERSLACK, 0);
  }

  private static int call(int option, long argument) {
    if (PRCTL == null) {
      return -1;
    }
    try {
      return (int) PRCTL.invokeExact(option, argument);
    } catch (Throwable t) {
      return -1;
    }
  }
}
