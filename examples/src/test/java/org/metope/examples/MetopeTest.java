package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.metope.app.Metope;
import org.junit.jupiter.api.io.TempDir;

class MetopeTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Metope.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private Path deck(String text) throws IOException {
    Path deck = dir.resolve("uni3d.in");
    Files.writeString(deck, text);
    return deck;
  }

  @Test
  void givenPrintDeckOnly_thenTheEffectiveDeckIsPrintedWithOverridesAndExitIsZero()
      throws IOException {
    Path deck = deck("<parthenon/mesh>\nnx1 = 64 # cells\n");
    assertEquals(0, run("-i", deck.toString(), "-n", "parthenon/mesh/nx1=32", "a/b=c"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("<parthenon/mesh>\nnx1 = 32 # From command line\n"), printed);
    assertTrue(printed.contains("<a>\nb = c # From command line\n"), printed);
    assertTrue(printed.endsWith("<par_end>\n"), printed);
    assertEquals("warning: command line: block <a> is not in " + deck
        + "; it is added for a/b\nwarning: command line: block <a> is not read by Metope\n",
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenBadDeck_thenOneLineNamingFileAndLineAndExitTwo() throws IOException {
    Path deck = deck("<parthenon/mesh>\nnx1 64\n");
    assertEquals(2, run("-i", deck.toString(), "-n"));
    assertEquals(deck + ":2: \"nx1 64\" in block <parthenon/mesh>: expected key = value\n",
        err.toString(StandardCharsets.UTF_8));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  private static final String CUBE_64 = "<parthenon/mesh>\n"
      + "nx1 = 64\nx1min = 0\nx1max = 1\nix1_bc = periodic\nox1_bc = periodic\n"
      + "nx2 = 64\nx2min = 0\nx2max = 1\nix2_bc = periodic\nox2_bc = periodic\n"
      + "nx3 = 64\nx3min = 0\nx3max = 1\nix3_bc = periodic\nox3_bc = periodic\n"
      + "<parthenon/meshblock>\nnx1 = 16\nnx2 = 16\nnx3 = 16\n";

  @Test
  void givenMeshStructureMode_thenTheMeshIsReportedForNRanksAndExitIsZero() throws IOException {
    Path deck = deck(CUBE_64);
    assertEquals(0, run("-i", deck.toString(), "-m", "2"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("\nTotal number of MeshBlocks = 64\n"), printed);
    assertTrue(printed.contains("\n  Rank = 0: 32 MeshBlocks, cost = 32\n"), printed);
    assertTrue(printed.contains("\n  Rank = 1: 32 MeshBlocks, cost = 32\n"), printed);
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenMeshStructureModeOnAnAdaptiveDeck_thenTheMeshAfterStartUpRefinementIsReported()
      throws Exception {
    // Parthenon's own adaptive deck starts its time loop on 88 blocks (its history says so).
    Path deck = Path.of(MetopeTest.class.getResource("/parthenon/amr2d/parthinput.advection")
        .toURI());
    assertEquals(0, run("-i", deck.toString(), "-m", "2"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("\nTotal number of MeshBlocks = 88\n"), printed);
    assertTrue(printed.contains("\n  Physical level = 2 (logical level = 4): 48 MeshBlocks,"
        + " cost = 48\n"), printed);
    assertTrue(printed.contains("\n  Rank = 1: 44 MeshBlocks, cost = 44\n"), printed);
  }

  @Test
  void givenMeshStructureModeWithAnInvalidMesh_thenOneLineAndExitTwo() throws IOException {
    Path deck = deck(CUBE_64);
    assertEquals(2, run("-i", deck.toString(), "-m", "2", "parthenon/meshblock/nx2=48"));
    assertEquals("command line: parthenon/meshblock/nx2 = \"48\": expected a divisor of "
        + "parthenon/mesh/nx2 = 64 (the mesh must be evenly divisible by the meshblock)\n",
        err.toString(StandardCharsets.UTF_8));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void givenMeshStructureModeWithMoreRanksThanBlocks_thenOneLineAndExitTwo() throws IOException {
    Path deck = deck(CUBE_64);
    assertEquals(2, run("-i", deck.toString(), "-m", "65"));
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.startsWith("metope: -m 65: the mesh has at most 64 MeshBlocks"), message);
    assertEquals(1, message.lines().count());
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void givenAMissingRestartFile_thenOneLineNamingItAndExitTwo() {
    Path missing = dir.resolve("advection.out1.00010.rhdf");
    assertEquals(2, run("-r", missing.toString()));
    assertEquals(missing + ": cannot read the restart file (no such file): expected an intact"
        + " .rhdf file written by a run with a file_type = rst output\n", err());
  }

  @Test
  void givenADeckOfNoApplication_thenOneLineSayingHowToChooseOne() throws IOException {
    Path deck = deck(CUBE_64);
    assertEquals(2, run("-i", deck.toString()));
    assertTrue(err().startsWith(deck + ": no application is named and no application block is"
        + " present: expected <metope> application = NAME"), err());
  }

  @Test
  void givenABuildWithoutBoundaryCommunication_thenTheRunIsRefusedWithOneLine()
      throws IOException {
    Path deck = deck(CUBE_64 + "<Advection>\n");
    assertEquals(2, Metope.run(new String[] {"-i", deck.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), null));
    assertEquals("metope: this build has no boundary communication (module bvals), so it cannot"
        + " run advection yet; -n and -m work\n", err());
  }

  @Test
  void givenBoundaryCommunicationAndAnOutputDirectory_thenTheRunWritesThereAndExitsZero()
      throws IOException {
    Path deck = deck(CUBE_64.replace("= 64", "= 16").replace("= 16\nnx2 = 16\nnx3 = 16\n",
        "= 8\nnx2 = 8\nnx3 = 8\n")
        + "<Advection>\n<parthenon/time>\nnlim = 2\n<parthenon/output1>\nfile_type = hst\n"
        + "<parthenon/job>\nproblem_id = tiny\n");
    Path outDir = dir.resolve("results/run1");
    assertEquals(0, TestLauncher.run(new String[] {"-i", deck.toString(), "-d", outDir.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)), err());
    assertTrue(Files.exists(outDir.resolve("tiny.out1.hst")));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("\nDriver completed.\ntime="));
  }
}
