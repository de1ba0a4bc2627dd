package org.metope.driver;

import org.metope.mesh.TestMeshes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.amr.AdaptiveRefinement;
import org.metope.amr.AmrFixtures;
import org.metope.comm.InProcessCluster;
import org.metope.comm.InProcessRun;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;
import org.metope.tasking.TaskStatus;

class EvolutionDriverTest {
  @TempDir Path dir;

  private static final Pattern STATUS = Pattern.compile("cycle=\\d+ time=\\d\\.\\d{16}e[+-]\\d\\d"
      + " dt=\\d\\.\\d{16}e[+-]\\d\\d zone-cycles/wsec_step=\\d\\.\\d\\de[+-]\\d\\d"
      + " wsec_total=\\d\\.\\d\\de[+-]\\d\\d wsec_step=\\d\\.\\d\\de[+-]\\d\\d");

  /** A driver whose stages record what they see; the last stage estimates the step. */
  private static final class RecordingDriver extends MultiStageDriver {
    final List<String> events = new ArrayList<>();
    int built;

    RecordingDriver(ParameterInput pin, Mesh mesh, RunOptions options) {
      super(pin, mesh, options, LowStorageIntegrator.fromInput(pin), null);
    }

    @Override
    protected TaskCollection makeTaskCollection(int stage) {
      built++;
      TaskCollection tc = new TaskCollection();
      List<MeshData> parts = mesh.meshData("base");
      TaskRegion region = tc.addRegion(parts.size());
      for (int p = 0; p < parts.size(); p++) {
        final int partition = p;
        TaskList tl = region.get(p);
        TaskId t = tl.addTask(TaskId.NONE, "record", () -> {
          if (partition == 0) {
            events.add("s" + stage + "@" + integrator.dt());
          }
          return TaskStatus.COMPLETE;
        });
        if (stage == integrator.nstages()) {
          addEstimateTimestep(t, tl, parts.get(p), parts.size());
        }
      }
      return tc;
    }
  }

  /** Output of one run. */
  private record Run(RecordingDriver driver, DriverStatus status, String out) {}

  private Run run(String time, StateDescriptor pkg, long deadline, String... overrides) {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, "<parthenon/time>\n" + time
        + "\n<parthenon/job>\nproblem_id = toy\n<parthenon/output0>\nfile_type = hst\ndt = 0\n"),
        overrides);
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(pkg), List.of("base", "1", "2"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    RecordingDriver driver = new RecordingDriver(pin, mesh, new RunOptions(dir, deadline, out));
    DriverStatus status = driver.execute();
    return new Run(driver, status, bytes.toString(StandardCharsets.UTF_8));
  }

  private Run run(String time, String... overrides) {
    return run(time, TestMeshes.toyPackage(0.125), Long.MAX_VALUE, overrides);
  }

  private static List<String> statusLines(String out) {
    return out.lines().filter(l -> l.startsWith("cycle=")).toList();
  }

  @Test
  void givenNlimAndNcycleOut_thenAStatusLineEveryNCyclesAndParthenonsSummary() {
    Run r = run("nlim = 5\ntlim = 10\nncycle_out = 2");
    List<String> lines = statusLines(r.out());
    assertEquals(3, lines.size(), r.out());
    for (String line : lines) {
      assertTrue(STATUS.matcher(line).matches(), line);
    }
    assertTrue(lines.get(1).startsWith("cycle=2 time=2.5000000000000000e-01"
        + " dt=1.2500000000000000e-01 "), lines.get(1));
    assertEquals(DriverStatus.COMPLETE, r.status());
    assertTrue(r.out().contains("\n\nDriver completed.\ntime=6.25e-01 cycle=5\n"
        + "tlim=1.00e+01 nlim=5\n\nwalltime used = "), r.out());
    assertTrue(Pattern.compile("\nzone-cycles/wallsecond = \\d\\.\\d\\de\\+\\d\\d\n$")
        .matcher(r.out()).find(), r.out());
    assertTrue(r.out().startsWith("# Variables in use:\n"), r.out());
    assertTrue(r.out().contains("\nSetup complete, executing driver...\n"), r.out());
  }

  @Test
  void givenAPerfCycleOffset_thenEveryStatusLineKeepsAPositiveRate() {
    // Parthenon's next line after the offset shows (count since the offset - count at the last
    // line) zone-cycles: a negative rate. Every line here must match STATUS (no minus sign).
    Run r = run("nlim = 6\ntlim = 10\nncycle_out = 1\nperf_cycle_offset = 3");
    List<String> lines = statusLines(r.out());
    assertEquals(7, lines.size(), r.out());
    for (String line : lines.subList(1, lines.size())) {
      assertTrue(STATUS.matcher(line).matches(), line);
      assertFalse(line.contains("zone-cycles/wsec_step=0.00e+00"), line);
    }
    // Each line follows one cycle of the same mesh, so rate x step time is the same count of
    // zones on the line after the reset as on the one before (3 printed digits each: 2 %).
    double before = zonesOfLine(lines.get(2));
    double after = zonesOfLine(lines.get(3));
    assertEquals(before, after, 0.02 * before, lines.get(2) + "\n" + lines.get(3));
  }

  /** A status line's zone-cycles/wsec_step times its wsec_step. */
  private static double zonesOfLine(String line) {
    java.util.regex.Matcher m = Pattern.compile("zone-cycles/wsec_step=(\\S+) .* wsec_step=(\\S+)")
        .matcher(line);
    assertTrue(m.find(), line);
    return Double.parseDouble(m.group(1)) * Double.parseDouble(m.group(2));
  }

  @Test
  void givenARestartedRun_thenTheFirstStepIsTheRecordedOneNotANewEstimate() {
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8,
        "<parthenon/time>\nnlim = 5\ntlim = 10\ndt = 0.0625\nncycle = 3\nstart_time = 0.375\n"));
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(TestMeshes.toyPackage(0.125)),
        List.of("base", "1", "2"));
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    RecordingDriver driver = new RecordingDriver(pin, mesh,
        new RunOptions(dir, Long.MAX_VALUE, out, true));
    driver.execute();
    // Recorded 0.0625, then the package's 0.125 (limited to twice the previous step).
    assertEquals(List.of("s1@0.0625", "s2@0.0625", "s1@0.125", "s2@0.125"), driver.events);
    assertEquals(5, driver.time().ncycle());
  }

  @Test
  void givenNoStatusLines_thenTheSummaryUsesCppsDefaultNumberFormat() {
    Run r = run("nlim = 5\ntlim = 10\nncycle_out = 0");
    assertEquals(List.of(), statusLines(r.out()));
    assertTrue(r.out().contains("\nDriver completed.\ntime=0.625 cycle=5\ntlim=10 nlim=5\n"),
        r.out());
  }

  @Test
  void givenRk3_thenEveryStepRunsItsStagesInOrderWithTheStepAndBuildsThemOnce() {
    Run r = run("nlim = 3\nintegrator = rk3");
    assertEquals(List.of("s1@0.125", "s2@0.125", "s3@0.125", "s1@0.125", "s2@0.125",
        "s3@0.125", "s1@0.125", "s2@0.125", "s3@0.125"), r.driver().events);
    assertEquals(3, r.driver().built);
  }

  @Test
  void givenTlim_thenTheLastStepIsShortenedToEndOnIt() {
    Run r = run("tlim = 0.3");
    assertEquals(3, r.driver().time().ncycle());
    assertEquals(0.3, r.driver().time().time());
  }

  @Test
  void givenPartitionsOnTwoRanks_thenTheStepIsTheSmallestEstimateOfAnyPartitionAndRank() {
    StateDescriptor pkg = TestMeshes.toyPackage(0.0);
    // Only the partition holding gid 3 (on rank 1) allows less than 0.25.
    pkg.setEstimateTimestep(md -> md.block(0).gid() == 3 ? 0.125 : 0.25);
    double[] dts = new double[2];
    InProcessRun.run(2, comm -> {
      ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8,
          "<parthenon/time>\nnlim = 2\n"), "parthenon/mesh/pack_size=1");
      Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(pkg), List.of("base", "1"), comm);
      RecordingDriver d = new RecordingDriver(pin, mesh, RunOptions.of(dir,
          new PrintStream(PrintStream.nullOutputStream())));
      d.execute();
      dts[comm.rank()] = d.time().dt();
      assertEquals(2, mesh.meshData("base").size());
    });
    assertEquals(0.125, dts[0]);
    assertEquals(0.125, dts[1]);
  }

  @Test
  void givenAWallTimeLimitThatHasPassed_thenTheRunStopsAfterOneCycleAsTimedOut() {
    Run r = run("nlim = 50", TestMeshes.toyPackage(0.125), System.nanoTime());
    assertEquals(DriverStatus.TIMEOUT, r.status());
    assertEquals(1, r.driver().time().ncycle());
    assertTrue(r.out().contains("\nTerminating on wall-time limit\n\nDriver timed out.  Restart"
        + " to continue.\ntime=1.25e-01 cycle=1\n"), r.out());
  }

  @Test
  void givenArchiveParameters_thenTheEffectiveDeckIsWrittenNextToTheOutputs() throws IOException {
    run("nlim = 1", "parthenon/job/archive_parameters=true");
    String archive = Files.readString(dir.resolve("parthinput.archive"));
    assertTrue(archive.contains("nlim"), archive);
    assertTrue(archive.contains("dt_factor"), archive);
  }

  @Test
  void givenAnHistoryEveryCycle_thenItHasCycleZeroEveryCycleAndTheLastOnce() throws IOException {
    run("nlim = 3");
    List<String> rows = Files.readAllLines(dir.resolve("toy.out0.hst")).subList(2, 6);
    for (int cycle = 0; cycle < 4; cycle++) {
      assertEquals(Integer.toString(cycle), rows.get(cycle).substring(26, 39).strip());
    }
  }

  @Test
  void givenAnAnalysisOnlyRun_thenNoCycleRunsAndNoFinalOutputIsWritten() throws IOException {
    Run r = run("nlim = 3", "parthenon/job/run_only_analysis=true");
    assertEquals(0, r.driver().time().ncycle());
    assertEquals(List.of(), r.driver().events);
    assertEquals(2, Files.readAllLines(dir.resolve("toy.out0.hst")).size() - 1);
  }

  /** A driver whose last stage estimates the step and tags the blocks for refinement. */
  private static final class TaggingDriver extends MultiStageDriver {
    int built;

    TaggingDriver(ParameterInput pin, Mesh mesh, RunOptions options) {
      super(pin, mesh, options, LowStorageIntegrator.fromInput(pin), null);
    }

    @Override
    protected TaskCollection makeTaskCollection(int stage) {
      built++;
      TaskCollection tc = new TaskCollection();
      List<MeshData> parts = mesh.meshData("base");
      TaskRegion region = tc.addRegion(parts.size());
      for (int p = 0; p < parts.size(); p++) {
        TaskList tl = region.get(p);
        MeshData md = parts.get(p);
        if (stage == integrator.nstages()) {
          addEstimateTimestep(TaskId.NONE, tl, md, parts.size());
          tl.addTask(TaskId.NONE, "Tag", () -> mesh.refinement().tag(md));
        }
      }
      return tc;
    }
  }

  @Test
  void givenAdaptiveRefinement_thenRemeshAfterTheStepNewStepEstimateAmrStatusAndSummary() {
    AmrFixtures.Tags tags = new AmrFixtures.Tags();
    tags.byLocation.put(new org.metope.mesh.forest.LogicalLocation(2, 1, 1, 0),
        org.metope.mesh.field.AmrTag.REFINE_VALUE);
    StateDescriptor pkg = AmrFixtures.toy(tags);
    ParameterInput pin = AmrFixtures.pin(AmrFixtures.deck2d(32, 8, 2, "<parthenon/time>\n"
        + "nlim = 3\ntlim = 10\nncycle_out_mesh = -1\n"));
    Mesh mesh = AmrFixtures.mesh(pin, pkg, InProcessCluster.singleRank());
    pkg.setEstimateTimestep(md -> 1.0 / md.block(0).mesh().totalBlocks());
    AdaptiveRefinement.fromInput(pin, mesh, new AmrFixtures.NoExchange());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    TaggingDriver driver = new TaggingDriver(pin, mesh, new RunOptions(dir, Long.MAX_VALUE,
        out));

    driver.execute();

    String text = bytes.toString(StandardCharsets.UTF_8);
    List<String> lines = statusLines(text);
    Pattern amrStatus = Pattern.compile(STATUS.pattern()
        + " zone-cycles/wsec=\\d\\.\\d\\de[+-]\\d\\d wsec_AMR=\\d\\.\\d\\de[+-]\\d\\d");
    for (String line : lines) {
      assertTrue(amrStatus.matcher(line).matches(), line);
    }
    // Cycle 0 ran on 16 blocks with dt 1/16; the remesh after it made 19 blocks, and the step
    // was estimated again on them: 1/19.
    assertTrue(lines.get(1).startsWith("cycle=1 time=6.2500000000000000e-02"
        + " dt=5.2631578947368418e-02 "), lines.get(1));
    assertEquals(1, count(text, "-------------- New Mesh structure after (de)refinement"
        + " -------------\nNumber of Trees = 16\nTotal number of MeshBlocks = 19\n"));
    // As in Parthenon, every cycle is a multiple of -1: cycles 0, 2 and the final line.
    assertEquals(3, count(text, "---------------------- Current Mesh structure"));
    assertEquals(4, driver.built, "rk2's two stages built again after the remesh");
    assertTrue(text.contains("\nNumber of MeshBlocks = 19; 3  created, 0 destroyed during this"
        + " simulation.\n"), text);
    assertTrue(Pattern.compile("\nremesh: 1 times \\(0 more at start-up\\), 3 blocks created, 0"
        + " destroyed; load balancing and refinement \\d\\.\\d\\de[+-]\\d\\d s"
        + " \\(\\d+\\.\\d% of walltime\\)\n$").matcher(text).find(), text);
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void givenLoopHooksAndPackageDiagnostics_thenEachCycleCallsThemInParthenonsOrder() {
    StateDescriptor pkg = TestMeshes.toyPackage(0.125);
    List<String> calls = new ArrayList<>();
    pkg.setPreStepDiagnostics((tm, md) -> calls.add("preDiag" + md.partition() + "@" + tm.ncycle()));
    pkg.setPostStepDiagnostics((tm, md) -> calls.add("postDiag" + md.partition() + "@"
        + tm.ncycle()));
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, "<parthenon/time>\nnlim = 2\n"),
        "parthenon/mesh/pack_size=2");
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(pkg), List.of("base", "1", "2"));
    RecordingDriver driver = new RecordingDriver(pin, mesh, RunOptions.of(dir,
        new PrintStream(PrintStream.nullOutputStream())));
    driver.hooks()
        .setPreStepMeshUserWorkInLoop((m, p, tm) -> calls.add("preWork@" + tm.ncycle()))
        .setUserWorkInLoop((md, b) -> calls.add("block" + md.block(b).gid()))
        .setPostStepMeshUserWorkInLoop((m, p, tm) -> calls.add("postWork@" + tm.ncycle()));
    List<String> stages = driver.events;
    driver.execute();
    assertEquals(List.of("s1@0.125", "s2@0.125", "s1@0.125", "s2@0.125"), stages);
    List<String> cycle0 = List.of("preWork@0", "preDiag0@0", "preDiag1@0", "block0", "block1",
        "block2", "block3", "postWork@0", "postDiag0@0", "postDiag1@0");
    List<String> expected = new ArrayList<>(cycle0);
    for (String c : cycle0) {
      expected.add(c.replace("@0", "@1"));
    }
    assertEquals(expected, calls);
  }

  @Test
  void givenAnApplicationDiagnosticsHook_thenItReplacesThePackagesDefault() {
    StateDescriptor pkg = TestMeshes.toyPackage(0.125);
    List<String> calls = new ArrayList<>();
    pkg.setPreStepDiagnostics((tm, md) -> calls.add("package"));
    ParameterInput pin = TestMeshes.pin(TestMeshes.deck1d(32, 8, "<parthenon/time>\nnlim = 1\n"));
    Mesh mesh = TestMeshes.mesh(pin, TestMeshes.packages(pkg), List.of("base", "1", "2"));
    RecordingDriver driver = new RecordingDriver(pin, mesh, RunOptions.of(dir,
        new PrintStream(PrintStream.nullOutputStream())));
    driver.hooks().setPreStepDiagnosticsInLoop((m, p, tm) -> {
      calls.add("app");
      LoopHooks.packagePreStepDiagnostics(m, p, tm);
    });
    driver.execute();
    assertEquals(List.of("app", "package"), calls);
  }
}
