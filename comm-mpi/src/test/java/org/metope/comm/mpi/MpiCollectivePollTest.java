package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A rank waiting in a collective polls without allocating: rank 0 of {@link CollectivePollProbe}
 * waits for a rank that works first, polling its reduction hundreds of times per call, and what
 * its thread allocates per call stays below {@value #BOUND_BYTES} bytes (the call's own objects,
 * about 200). Building the error message of {@code MPI_Test} on every poll, as the device once
 * did, allocated about 117,000 bytes per call there.
 */
class MpiCollectivePollTest {
  private static final long LIMIT_SECONDS = 120;
  private static final long BOUND_BYTES = 2048;
  private static final Pattern PER_CALL = Pattern.compile("allocated per allreduce: (\\d+) bytes");

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  @Test
  void givenARankWaitingInAllreduce_thenItsPollsAllocateNothing() throws Exception {
    String classes = MpiLauncherRun.root().resolve("comm-mpi/target/test-classes").toString();
    MpiLauncherRun r = MpiLauncherRun.metope(LIMIT_SECONDS, "-np", "2", "--dev", "mpi", "-cp",
        classes, "--class", CollectivePollProbe.class.getName());
    assertEquals(0, r.exitCode(), r.output());
    Matcher m = PER_CALL.matcher(r.output());
    assertTrue(m.find(), r.output());
    long bytes = Long.parseLong(m.group(1));
    assertTrue(bytes < BOUND_BYTES, "bytes allocated per allreduce while waiting: " + bytes);
  }
}
