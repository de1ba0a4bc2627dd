package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A seal made from known checksums against the seal made by reading every byte. */
class FileSealTest {
  @TempDir Path dir;

  private static int crc(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  /**
   * Known parts at the start, in the middle, touching each other and at the very end give the
   * seal a full read gives, byte for byte. Negative control: one known checksum off by one bit
   * gives another seal.
   */
  @Test
  void givenKnownParts_thenTheSealIsTheOneOfAFullRead() throws Exception {
    byte[] bytes = new byte[100_000];
    new SplittableRandom(11).nextBytes(bytes);
    int[][] parts = {{0, 10}, {500, 40_000}, {40_000, 40_008}, {70_000, 100_000}};
    List<FileSeal.Known> known = Arrays.stream(parts)
        .map(p -> new FileSeal.Known(p[0], p[1] - p[0], crc(bytes, p[0], p[1]))).toList();
    byte[] read = sealed("read", bytes, List.of());
    assertArrayEquals(read, sealed("known", bytes, known));
    List<FileSeal.Known> wrong = new java.util.ArrayList<>(known);
    FileSeal.Known second = wrong.get(1);
    wrong.set(1, new FileSeal.Known(second.start(), second.length(), second.checksum() ^ 1));
    assertFalse(Arrays.equals(read, sealed("wrong", bytes, wrong)), "negative control");
  }

  @Test
  void givenPartsOutOfOrderOrPastTheEnd_thenRefused() throws Exception {
    byte[] bytes = new byte[100];
    Path file = Files.write(dir.resolve("bad"), bytes);
    assertThrows(IllegalStateException.class, () -> FileSeal.append(file,
        List.of(new FileSeal.Known(50, 10, 0), new FileSeal.Known(40, 5, 0))));
    assertThrows(IllegalStateException.class, () -> FileSeal.append(file,
        List.of(new FileSeal.Known(90, 20, 0))));
  }

  private byte[] sealed(String name, byte[] bytes, List<FileSeal.Known> known) throws Exception {
    Path file = Files.write(dir.resolve(name), bytes);
    FileSeal.append(file, known); // none known: every byte is read
    return Files.readAllBytes(file);
  }
}
