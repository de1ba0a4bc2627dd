package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.mesh.Mesh;
import org.metope.driver.FluxDriver;
import org.metope.driver.LowStorageIntegrator;
import org.metope.driver.RunOptions;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskNames;

/** The advection example's driver: a {@link FluxDriver} with Parthenon's advection stage update. */
class AdvectionFluxDriverTest {
  @Test
  void givenRk2_thenContainersAreBaseOneAndDudt() {
    assertEquals(List.of("base", "1", "dUdt"),
        FluxDriver.containerNames(LowStorageIntegrator.of("rk2")));
    assertEquals(List.of("base", "dUdt"),
        FluxDriver.containerNames(LowStorageIntegrator.of("rk1")));
  }

  @Test
  void givenPartitions_thenOneRegionWithOneListPerPartitionInParthenonsTaskOrder() {
    ParameterInput pin = AdvectionMeshes.pin(AdvectionMeshes.deck(2, 16, 8, ""),
        "parthenon/mesh/pack_size=2", "parthenon/time/nlim=1");
    Mesh mesh = AdvectionMeshes.mesh(pin);
    InOneBoundaryCommunication exchange = InOneBoundaryCommunication.fromInput(pin);
    exchange.setup(mesh);
    FluxDriver driver = new FluxDriver(pin, mesh, RunOptions.of(Path.of("."),
        new PrintStream(PrintStream.nullOutputStream())), LowStorageIntegrator.of("rk2"), null,
        exchange, FluxDriver.Options.DEFAULT.withStageUpdate(
            FluxDriver.StageUpdate.ADVECTION_EXAMPLE));
    TaskCollection stage1 = driver.makeTaskCollection(1);
    TaskCollection stage2 = driver.makeTaskCollection(2);
    assertEquals(1, stage1.regions().size());
    assertEquals(2, stage1.regions().get(0).size());
    List<String> common = List.of("StartReceiveBoundBufs", "StartReceiveFluxCorrections",
        "CalculateFluxes", "FluxDivergence", "AverageIndependentData", "UpdateIndependentData",
        "send_bound_bufs", "receive_bound_bufs", "set_bounds", "apply_boundary_conditions",
        "FillDerived");
    assertEquals(common, TaskNames.of(stage1.regions().get(0).get(1)));
    List<String> last = new java.util.ArrayList<>(common);
    last.add("EstimateTimestep");
    assertEquals(last, TaskNames.of(stage2.regions().get(0).get(1)));
    last.add("ReduceTimestep");
    assertEquals(last, TaskNames.of(stage2.regions().get(0).get(0)));
  }
}
