package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deck whose fields do not fit in the JVM heap ends with one sentence naming the block count
 * and the memory needed, not a stack trace: {@code inputs/burgers_small.in} (64 blocks of 16^3
 * with 4 ghosts and 11 components, about 0.5 GiB of fields) in a 96 MiB heap.
 */
class BurgersMemoryTest {
  @Test
  void givenAHeapTooSmallForTheFields_thenOneSentenceWithBlocksAndMemoryAndExitOne()
      throws Exception {
    Path deck = RepoPaths.inputs().resolve("burgers_small.in");
    ProcessResult r = ProcessResult.run(RepoPaths.root(), 120, java.util.Map.of(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m", "-cp",
        System.getProperty("java.class.path"), "org.metope.app.Metope", "-i",
        deck.toString(), "-d", System.getProperty("java.io.tmpdir"));
    assertEquals(1, r.exitCode(), r.output());
    List<String> errors = r.output().lines().filter(l -> l.startsWith("metope:")).toList();
    assertEquals(1, errors.size(), r.output());
    // Refused by the estimate before allocating (MemoryBudget); FieldMemoryError is the fallback
    // when an allocation fails all the same.
    assertTrue(errors.get(0).startsWith("metope: the mesh has 64 MeshBlocks of 24x24x24 cells"
        + " with ghosts, 64 on this rank; their fields and tree need 474.4 MiB, more than half"
        + " of the 96.0 MiB this JVM may use"), errors.get(0));
    assertTrue(!r.output().contains("Exception") && !r.output().contains("\tat "), r.output());
  }
}
