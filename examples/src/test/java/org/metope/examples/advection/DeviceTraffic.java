package org.metope.examples.advection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.kernels.tornado.DeviceTrace;
import org.metope.kernels.tornado.EmulatedDeviceBackend;
import org.metope.kernels.tornado.EmulatedDeviceBackend.Fault;
import org.metope.comm.InProcessRun;
import org.metope.mesh.input.ParameterInput;

/**
 * Developer tool: runs a deck on in-process ranks with the boundary kernels on the emulated
 * device, so that {@code METOPE_DEVICE_TRACE=1} prints the bytes the TornadoVM backend's launches
 * would move per stage and rank (the declarations are the same; only the device differs); with
 * {@code resident}, on the resident emulation (the stage's physics on the device too).
 *
 * <pre>
 * METOPE_DEVICE_TRACE=1 java -cp ... org.metope.examples.advection.DeviceTraffic DECK RANKS \
 *     [resident] [block/key=value ...]
 * </pre>
 */
public final class DeviceTraffic {
  private DeviceTraffic() {}

  /** Runs deck {@code args[0]} on {@code args[1]} ranks with the overrides that follow. */
  public static void main(String[] args) throws IOException {
    Path deck = Path.of(args[0]);
    int ranks = Integer.parseInt(args[1]);
    boolean resident = args.length > 2 && args[2].equals("resident");
    List<String> overrides = new ArrayList<>(Arrays.asList(args)
        .subList(resident ? 3 : 2, args.length));
    Path dir = Files.createTempDirectory("device-traffic");
    InProcessRun.run(ranks, comm -> {
      ParameterInput pin = ParameterInput.load(deck, overrides);
      try (EmulatedDeviceBackend device = resident
          ? EmulatedDeviceBackend.resident(Fault.NONE, DeviceTrace.fromEnvironment(), false)
          : new EmulatedDeviceBackend()) {
        AdvectionRuns.run(pin, dir, comm, p -> InOneBoundaryCommunication.fromInput(p, device));
      }
    });
  }
}
