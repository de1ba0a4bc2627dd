package org.metope.comm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cycle's reduction allocates nothing, however long a rank waits in it: rank 0 of {@link
 * CollectivePollProbe} waits for a rank that works first, polling its reduction hundreds of times
 * per call, and its thread allocates 0 bytes over the measured calls. Building the error message
 * of {@code MPI_Test} on every poll, as the device once did, allocated about 117,000 bytes per
 * call there; a waiter per wait and the scratch buffer's slices per call, about 200.
 */
class MpiCollectivePollTest {
  private static final long LIMIT_SECONDS = 120;
  private static final Pattern PER_CALL = Pattern.compile("allocated per allreduce: (\\d+) bytes");

  @BeforeAll
  static void prerequisites() {
    MpiLauncherRun.requirePrerequisites();
  }

  @Test
  void givenARankWaitingInAllreduce_thenTheReductionAllocatesNothing() throws Exception {
    String classes = MpiLauncherRun.root().resolve("comm-mpi/target/test-classes").toString();
    MpiLauncherRun r = MpiLauncherRun.metope(LIMIT_SECONDS, "-np", "2", "--dev", "mpi", "-cp",
        classes, "--class", CollectivePollProbe.class.getName());
    assertEquals(0, r.exitCode(), r.output());
    Matcher m = PER_CALL.matcher(r.output());
    assertTrue(m.find(), r.output());
    long bytes = Long.parseLong(m.group(1));
    assertEquals(0, bytes, "bytes allocated per allreduce while waiting");
  }
}
