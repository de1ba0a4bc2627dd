package org.metope.outputs;

import java.util.List;
import org.metope.mesh.input.ParameterInput;

/**
 * The keys of an {@code hdf5} or {@code rst} output block besides the timing ones (Parthenon's
 * {@code OutputParameters} for HDF5), with Parthenon's defaults, all recorded in the deck.
 *
 * @param restart whether this is a restart output ({@code file_type = rst}, {@code .rhdf})
 * @param variables {@code variables}: patterns of the fields written (hdf5 only)
 * @param ghostZones {@code ghost_zones} (false): write ghost cells too
 * @param singlePrecision {@code single_precision_output} (false): 32-bit floats
 * @param sparseSeedNans {@code sparse_seed_nans} (false): unallocated sparse blocks read NaN, not 0
 * @param writeXdmf {@code write_xdmf} (true): write the {@code .xdmf} companion
 * @param writeSwarmXdmf {@code write_swarm_xdmf} (false; never for restarts): write each swarm's
 *     {@code swarm_positions} and the {@code .swarm.xdmf} companion ({@link SwarmXdmfWriter})
 * @param fileNumberWidth {@code file_number_width} (5): digits of the file number
 * @param useFinalLabel {@code use_final_label} (true): the last file is {@code ...final.phdf}
 * @param compressionLevel {@code hdf5_compression_level} (5); recorded but not applied: Metope
 *     writes contiguous, uncompressed datasets
 * @param sharedFileWrites {@code <metope> shared_file_writes} (true): ranks that can open rank 0's
 *     file write their values into it themselves; false streams them to rank 0 every time
 */
public record Hdf5Settings(
    boolean restart,
    List<String> variables,
    boolean ghostZones,
    boolean singlePrecision,
    boolean sparseSeedNans,
    boolean writeXdmf,
    boolean writeSwarmXdmf,
    int fileNumberWidth,
    boolean useFinalLabel,
    int compressionLevel,
    boolean sharedFileWrites) {

  /** The most digits a file number may have: more than an int holds is a typo. */
  public static final int MAX_FILE_NUMBER_WIDTH = 10;
  /** The key, in block {@code metope}, that lets ranks write into rank 0's file themselves. */
  public static final String SHARED_FILE_WRITES = "shared_file_writes";

  /** Copies the list. */
  public Hdf5Settings {
    variables = List.copyOf(variables);
  }

  /** Reads the keys of output block {@code block}, in Parthenon's order. */
  public static Hdf5Settings fromInput(ParameterInput pin, String block, boolean restart) {
    int width = pin.getOrAddInteger(block, "file_number_width", 5);
    if (width < 1 || width > MAX_FILE_NUMBER_WIDTH) {
      throw pin.error(block, "file_number_width", "an integer from 1 to "
          + MAX_FILE_NUMBER_WIDTH);
    }
    boolean finalLabel = pin.getOrAddBoolean(block, "use_final_label", true);
    boolean ghosts = pin.getOrAddBoolean(block, "ghost_zones", false);
    boolean single = pin.getOrAddBoolean(block, "single_precision_output", false);
    boolean nans = pin.getOrAddBoolean(block, "sparse_seed_nans", false);
    int compression = pin.getOrAddInteger(block, "hdf5_compression_level", 5);
    List<String> variables = restart ? List.of()
        : pin.getOrAddStringList(block, "variables", List.of());
    // An output of particles only has no fields; its deck records variables as an empty list.
    // A deck stored in a file records both variables and swarms, empty for a block that gave
    // neither, so a run resumed from it passes this check.
    if (!restart && pin.isGivenByUser(block, "variables")
        && variables.stream().allMatch(String::isBlank) && !pin.doesParameterExist(block, "swarms")) {
      throw pin.error(block, "variables", "one or more field names or regular expressions (an"
          + " empty list would write outputs without fields or particles)");
    }
    boolean xdmf = pin.getOrAddBoolean(block, "write_xdmf", true);
    boolean swarmXdmf = !restart && pin.getOrAddBoolean(block, "write_swarm_xdmf", false);
    // Read, not added: a deck that leaves it out keeps its effective deck as Parthenon's.
    boolean sharedWrites = !pin.doesParameterExist("metope", SHARED_FILE_WRITES)
        || pin.getBoolean("metope", SHARED_FILE_WRITES);
    return new Hdf5Settings(restart, variables, ghosts, single, nans, xdmf, swarmXdmf, width,
        finalLabel,
        compression, sharedWrites);
  }

  /** The file extension: {@code .rhdf} for restarts, {@code .phdf} otherwise. */
  public String extension() {
    return restart ? ".rhdf" : ".phdf";
  }
}
