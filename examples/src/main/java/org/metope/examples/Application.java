package org.metope.examples;

import java.io.PrintStream;
import java.util.function.Function;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.comm.Communicator;
import org.metope.mesh.BoundaryCommunication;
import org.metope.driver.RunOptions;
import org.metope.mesh.input.ParameterInput;
import org.metope.outputs.RestartFile;

/**
 * A simulation the {@code metope} launcher can run (Parthenon builds one executable per example;
 * Metope has one launcher and picks the application from the deck, see {@link Applications}).
 */
public interface Application {
  /** The name a deck gives in {@code <metope> application = NAME}, e.g. {@code advection}. */
  String name();

  /** The deck block of the application's own keys, e.g. {@code Advection}. */
  String deckBlock();

  /**
   * Runs the deck on this rank.
   *
   * @return the process exit code: 0 for a run that completed or timed out, non-zero otherwise
   */
  int run(Launch launch);

  /**
   * The mesh a run of the deck starts its time loop on, laid out for {@code nranks} ranks, for
   * {@code metope -m N}. By default the deck's mesh (static refinement applied); an application
   * whose packages refine at start-up builds its initial state to find the mesh that refinement
   * makes.
   *
   * @throws org.metope.mesh.input.InputError for a bad deck
   */
  default Mesh initialMesh(ParameterInput pin, int nranks,
      Function<ParameterInput, BoundaryCommunication> boundaries) {
    return Mesh.build(MeshConfiguration.fromInput(pin), nranks, 0);
  }

  /**
   * Everything a run gets from the launcher.
   *
   * @param pin the deck with command-line overrides
   * @param options output directory, wall-time limit and standard output
   * @param err where one-line errors and warnings go
   * @param communicator the ranks of the run
   * @param boundaries makes the boundary communication of the mesh from the deck
   * @param restart the restart file the run resumes from ({@code -r}), or null for a new run;
   *     {@code pin} is then its deck with the command line's overrides
   */
  record Launch(ParameterInput pin, RunOptions options, PrintStream err,
      Communicator communicator, Function<ParameterInput, BoundaryCommunication> boundaries,
      RestartFile restart) {
    /** A launch of a new run. */
    public Launch(ParameterInput pin, RunOptions options, PrintStream err,
        Communicator communicator, Function<ParameterInput, BoundaryCommunication> boundaries) {
      this(pin, options, err, communicator, boundaries, null);
    }
  }
}
