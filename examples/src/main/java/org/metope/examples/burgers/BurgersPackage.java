package org.metope.examples.burgers;

import java.util.List;
import org.metope.mesh.field.HistoryOutput;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;

/**
 * The {@code burgers_package} of Parthenon's benchmark Parthenon-VIBE: the vector inviscid
 * Burgers' equation {@code du/dt + div(u u / 2) = 0} with {@code num_scalars} passive scalars
 * {@code dq/dt + div(q u) = 0}, with the deck keys, defaults, fields, history outputs and callbacks
 * of Parthenon's {@code burgers_package::Initialize}.
 *
 * <p>{@code <burgers>} keys (defaults): {@code cfl} (0.8), {@code recon} ({@code weno5} | {@code
 * linear}; weno5 needs {@code <parthenon/mesh> nghost >= 4}, linear 2), {@code num_scalars} (1, at least 1),
 * {@code prolongate_ghosts} (true; false: as Parthenon's benchmark, stages do not prolongate ghost
 * cells that face coarser blocks, see {@link BurgersApplication}; a Metope key), and for the initial state
 * {@code kx_fact}, {@code ky_fact}, {@code kz_fact} (1.0, read but not used, as in Parthenon).
 *
 * <p>Fields, as Parthenon names them: {@code U}, one cell field of {@code 3 + num_scalars}
 * components (the velocity {@code u_x, u_y, u_z}, then the scalars), independent, with fluxes,
 * filled in ghosts; {@code derived}, one component, {@code 0.5 q_0 |u|^2} on interior cells.
 * Parthenon also declares six fields {@code Ulx .. Urz} holding the reconstructed face states of
 * every block; Metope reconstructs into per-thread scratch instead (see {@link BurgersFluxes}), so
 * those names do not exist here.
 *
 * <p>History: {@code MS Mass 0} .. {@code MS Mass 7}, per octant of the domain the sum over every
 * component of {@code U} of {@code U^2 V / V_mesh} over the cells whose centre lies in the octant
 * (bounds inclusive), added cell by cell in one total over the blocks in gid order, as
 * Parthenon's single-rank runs add it (see {@link BurgersHistory}).
 */
public final class BurgersPackage {
  /** The package label, as in Parthenon. */
  public static final String NAME = "burgers_package";
  /** The deck block of the package's keys. */
  public static final String BLOCK = "burgers";
  /** The values a deck may give {@code <burgers> recon}. */
  public static final List<String> RECONSTRUCTIONS = List.of("weno5", "linear");
  /** Ghost cells WENO5 needs on each side. */
  public static final int WENO5_GHOSTS = 4;
  /** Components of {@code U} before the scalars. */
  public static final int VELOCITY_COMPONENTS = 3;

  private BurgersPackage() {}

  /**
   * Reads {@code <burgers>} and declares the package.
   *
   * @throws org.metope.mesh.input.InputError for an unknown {@code recon}, {@code weno5} with
   *     fewer than 4 ghost cells, or {@code num_scalars < 1}
   */
  public static StateDescriptor initialize(ParameterInput pin) {
    StateDescriptor pkg = new StateDescriptor(NAME);
    pkg.addParam("cfl", pin.getOrAddReal(BLOCK, "cfl", 0.8));
    String recon = pin.getOrAddString(BLOCK, "recon", "weno5", RECONSTRUCTIONS);
    int nghost = pin.getOrAddInteger("parthenon/mesh", "nghost", 2);
    if (recon.equals("weno5") && nghost < WENO5_GHOSTS) {
      // Point at the value the user wrote: nghost if given, else the recon line (or its default).
      if (pin.isGivenByUser("parthenon/mesh", "nghost") || !pin.isGivenByUser(BLOCK, "recon")) {
        throw pin.error("parthenon/mesh", "nghost", "at least " + WENO5_GHOSTS
            + " for <burgers> recon = weno5 (set nghost = 4, or recon = linear)");
      }
      throw pin.error(BLOCK, "recon", "linear while <parthenon/mesh> nghost = " + nghost
          + " (weno5 needs nghost >= " + WENO5_GHOSTS + ")");
    }
    if (recon.equals("linear") && nghost < 2) {
      throw pin.error("parthenon/mesh", "nghost", "at least 2 for <burgers> recon = linear");
    }
    // Parthenon keeps its reconstruction as an enum, which its outputs skip.
    pkg.addUnwrittenParam("recon", recon);
    int numScalars = pin.getOrAddInteger(BLOCK, "num_scalars", 1);
    if (numScalars < 1) {
      throw pin.error(BLOCK, "num_scalars", "an integer >= 1 (the benchmark needs a scalar)");
    }
    pkg.addParam("num_scalars", numScalars);
    for (String key : List.of("kx_fact", "ky_fact", "kz_fact")) {
      pin.getOrAddReal(BLOCK, key, 1.0);
    }
    // Metope's own option (docs/USERS.md, burgers): not a parameter of Parthenon's package.
    pkg.addUnwrittenParam("prolongate_ghosts",
        pin.getOrAddBoolean(BLOCK, "prolongate_ghosts", true));
    int ncomp = VELOCITY_COMPONENTS + numScalars;
    pkg.addField("U", Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.INTENSIVE,
        Metadata.CONSERVED, Metadata.FILL_GHOST, Metadata.WITH_FLUXES).shape(ncomp).build());
    pkg.addField("derived",
        Metadata.builder(Metadata.CELL, Metadata.DERIVED, Metadata.ONE_COPY).build());
    addHistoryOutputs(pkg, pin);
    pkg.setCalculateFluxes(BurgersFluxes.FUNCTION);
    pkg.setEstimateTimestep(BurgersTimestep.ESTIMATOR);
    pkg.setFillDerived(BurgersDerived.FILL);
    return pkg;
  }

  /** Whether the package reconstructs with WENO5 (else slope-limited linear). */
  static boolean isWeno5(StateDescriptor pkg) {
    return pkg.params().getString("recon").equals("weno5");
  }

  /**
   * The eight octants in Parthenon's order (x1 half outermost, x3 half innermost, lower half
   * first), each {@code x1min, x1max, x2min, x2max, x3min, x3max}, and the mesh volume.
   */
  private static void addHistoryOutputs(StateDescriptor pkg, ParameterInput pin) {
    double[] min = new double[3];
    double[] max = new double[3];
    double[] mid = new double[3];
    double meshVolume = 1.0;
    for (int d = 0; d < 3; d++) {
      min[d] = pin.getReal("parthenon/mesh", "x" + (d + 1) + "min");
      max[d] = pin.getReal("parthenon/mesh", "x" + (d + 1) + "max");
      meshVolume *= max[d] - min[d];
      mid[d] = 0.5 * (min[d] + max[d]);
    }
    pkg.addParam("mesh_volume", meshVolume);
    int octant = 0;
    for (int s1 = 0; s1 < 2; s1++) {
      for (int s2 = 0; s2 < 2; s2++) {
        for (int s3 = 0; s3 < 2; s3++) {
          double[] box = {
              s1 == 1 ? mid[0] : min[0], s1 == 1 ? max[0] : mid[0],
              s2 == 1 ? mid[1] : min[1], s2 == 1 ? max[1] : mid[1],
              s3 == 1 ? mid[2] : min[2], s3 == 1 ? max[2] : mid[2]};
          pkg.addHistoryOutput(HistoryOutput.runningSum("MS Mass " + octant,
              (md, b, total) -> BurgersHistory.mass(md, b, box, total)));
          octant++;
        }
      }
    }
  }
}
