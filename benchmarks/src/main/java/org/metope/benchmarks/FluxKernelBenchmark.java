package org.metope.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The advection flux kernel ({@code AdvectionFluxes}: offsets from a {@code VariablePack}, the
 * its host loops over flat runs) against the hand-written one it replaced ({@link
 * HandWrittenFluxes}), on the same
 * data: one partition of 8 blocks of 16^3 cells (2 components of {@code advected}, 3 directions),
 * constant velocity and, with {@code velocity = field}, the cell field {@code v} (each component
 * of one sign, as in a flow). The score is
 * the time of one launch over the partition.
 *
 * <p>Both kernels, in both velocity modes, and other kernels of the loop helpers are run during
 * set-up before anything is measured ({@link FluxMeshes#warmUp}), so that every shared method
 * (the views' accessors, the loop helpers) has seen several callers, as in a run, and the
 * comparison is not flattered or hurt by a profile that only one kernel made.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar FluxKernelBenchmark} (see
 * docs/PERFORMANCE.md for the figures and the machine).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class FluxKernelBenchmark {
  /** {@code constant}: {@code vx, vy, vz}; {@code field}: the cell field {@code v}. */
  @Param({"constant", "field"})
  public String velocity;

  /** Cells per block side. */
  @Param({"16"})
  public int cells;

  private FluxMeshes.Case run;

  /** Builds both cases and warms them up ({@link FluxMeshes#warmUp}). */
  @Setup
  public void setUp() {
    FluxMeshes.Case constant = FluxMeshes.build(3, cells, 2, true, false, 1);
    FluxMeshes.Case field = FluxMeshes.build(3, cells, 2, false, false, 2);
    FluxMeshes.warmUp(200, constant, field);
    run = velocity.equals("constant") ? constant : field;
  }

  /** The kernel written by hand on arena offsets. */
  @Benchmark
  public void handWritten(Blackhole bh) {
    bh.consume(HandWrittenFluxes.calculateFluxes(run.md(), run.fluxFields()));
  }

  /** The kernel on views. */
  @Benchmark
  public void views() {
    run.viewKernel().calculateFluxes(run.md(), run.fluxFields());
  }
}
