package org.metope.mesh.field;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metope.kernels.body.StageLaunch;
import org.metope.mesh.SimTime;

/**
 * The packages of a run (Parthenon's {@code Packages_t}), in the order they were added, with
 * their resolution into one field list and the driver's view of their callbacks.
 *
 * <p>The order of addition is the order everything package-related happens in: field ids,
 * callbacks, history columns. It never depends on hashing, so every rank agrees on it.
 */
public final class Packages {
  private final Map<String, StateDescriptor> packages = new LinkedHashMap<>();
  /** The same packages in the order added, for the loops that run every step without iterators. */
  private StateDescriptor[] inOrder = new StateDescriptor[0];

  /** The packages {@code pkgs}, in that order. */
  public static Packages of(StateDescriptor... pkgs) {
    Packages packages = new Packages();
    for (StateDescriptor pkg : pkgs) {
      packages.add(pkg);
    }
    return packages;
  }

  /** Adds a package; labels must be unique. */
  public void add(StateDescriptor pkg) {
    if (packages.containsKey(pkg.label())) {
      throw new IllegalArgumentException("package label=" + pkg.label() + " was already added");
    }
    packages.put(pkg.label(), pkg);
    inOrder = packages.values().toArray(new StateDescriptor[0]);
  }

  /** The package with this label. */
  public StateDescriptor get(String label) {
    StateDescriptor pkg = packages.get(label);
    if (pkg == null) {
      throw new IllegalArgumentException("no package label=" + label + " (packages="
          + packages.keySet() + ")");
    }
    return pkg;
  }

  /** Whether a package has this label. */
  public boolean contains(String label) {
    return packages.containsKey(label);
  }

  /** Every package in the order added. */
  public List<StateDescriptor> all() {
    return List.copyOf(packages.values());
  }

  /**
   * Merges every package's fields into one list (Parthenon's {@code ResolvePackages}).
   *
   * <p>Roles, as in Parthenon: a {@code PRIVATE} field becomes {@code package::name}; a {@code
   * PROVIDES} field (the default) may have one provider only; an {@code OVERRIDABLE} field is
   * made by the first package declaring it unless some package provides it; a {@code REQUIRES}
   * field makes nothing but must be provided or overridable somewhere. A sparse pool counts as one
   * declaration of its base name and becomes one field per id.
   *
   * <p>Errors ({@link IllegalStateException}) name the field and both packages: two providers of
   * one name, overridable declarations with different flags or shapes, a required field nobody
   * makes, or two declarations producing the same full name.
   *
   * <p>Order (the field ids): packages in the order added; within a package, declarations in the
   * order declared; a sparse pool's fields by ascending id. A provided field sits where its
   * provider declared it, an overridable one where its first declarer did.
   */
  public ResolvedState resolve() {
    return PackageResolver.resolve(all());
  }

  /**
   * Every package's swarms, packages in the order added.
   *
   * @throws IllegalStateException when two packages declare one swarm name
   */
  public List<SwarmLayout> swarmLayouts() {
    List<SwarmLayout> layouts = new ArrayList<>();
    Map<String, String> declaredBy = new LinkedHashMap<>();
    for (StateDescriptor pkg : inOrder) {
      for (SwarmLayout layout : pkg.swarms()) {
        String other = declaredBy.putIfAbsent(layout.name(), pkg.label());
        if (other != null) {
          throw new IllegalStateException("swarm=" + layout.name() + " is declared by packages "
              + other + " and " + pkg.label());
        }
        layouts.add(layout);
      }
    }
    return layouts;
  }

  /**
   * Resolves every package's flux function in {@code state} ({@link FluxFunction#resolve}), in
   * the order the packages were added.
   *
   * @throws SetupError from the first flux function that cannot find what it needs
   */
  public void resolveFluxFunctions(ResolvedState state) {
    for (StateDescriptor pkg : inOrder) {
      if (pkg.calculateFluxes() != null) {
        pkg.calculateFluxes().resolve(state);
      }
    }
  }

  /** Runs every package's pre-communication fill-derived callback. */
  public void preCommFillDerived(MeshData md) {
    for (StateDescriptor pkg : inOrder) {
      pkg.preCommFillDerived(md);
    }
  }

  /**
   * Fills derived fields as Parthenon's {@code Update::FillDerived} does: every package's
   * pre-fill, then every package's fill, then every package's post-fill. Within each phase a
   * package's partition-level callback runs before its block-level one, block by block (Parthenon
   * runs a block-level driver's phases block by block instead; block callbacks touch only their
   * block, so the result is the same).
   */
  public void fillDerived(MeshData md) {
    for (StateDescriptor pkg : inOrder) {
      pkg.preFillDerived(md);
    }
    for (StateDescriptor pkg : inOrder) {
      pkg.fillDerived(md);
    }
    for (StateDescriptor pkg : inOrder) {
      pkg.postFillDerived(md);
    }
  }

  /**
   * Runs every package's pre-step diagnostics on {@code md} (what Parthenon's default {@code
   * PreStepUserDiagnosticsInLoop} does on each partition).
   */
  public void preStepDiagnostics(SimTime tm, MeshData md) {
    for (StateDescriptor pkg : inOrder) {
      pkg.preStepDiagnostics(tm, md);
    }
  }

  /** Runs every package's post-step diagnostics on {@code md}. */
  public void postStepDiagnostics(SimTime tm, MeshData md) {
    for (StateDescriptor pkg : inOrder) {
      pkg.postStepDiagnostics(tm, md);
    }
  }

  /** Whether some package fills derived fields ({@link StateDescriptor#hasFillDerived}). */
  public boolean hasFillDerived() {
    for (StateDescriptor pkg : inOrder) {
      if (pkg.hasFillDerived()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every package's fill-derived work on {@code md} as stage launches, in package order ({@link
   * StateDescriptor#fillDerivedLaunches}); null when some package's runs on the host only.
   */
  public List<StageLaunch> fillDerivedLaunches(MeshData md) {
    List<StageLaunch> launches = new ArrayList<>();
    for (StateDescriptor pkg : inOrder) {
      List<StageLaunch> own = pkg.fillDerivedLaunches(md);
      if (own == null) {
        return null;
      }
      launches.addAll(own);
    }
    return launches;
  }

  /** Whether some package's time step estimate reads fields. */
  public boolean timestepReadsFields() {
    for (StateDescriptor pkg : inOrder) {
      if (pkg.timestepReadsFields()) {
        return true;
      }
    }
    return false;
  }

  /** Runs every package's callback for newly allocated sparse fields. */
  public void initNewlyAllocatedVars(MeshData md) {
    for (StateDescriptor pkg : inOrder) {
      pkg.initNewlyAllocatedVars(md);
    }
  }

  /**
   * The smallest time step any package allows on {@code md} at either level ({@code
   * Double.MAX_VALUE} if none), as Parthenon's {@code Update::EstimateTimestep}.
   */
  public double estimateTimestep(MeshData md) {
    double dt = Double.MAX_VALUE;
    for (StateDescriptor pkg : inOrder) {
      dt = Math.min(dt, pkg.estimateTimestep(md));
    }
    return dt;
  }

  /**
   * Combines every package's refinement criterion on {@code md} into {@code tags} (one {@link
   * AmrTag} value per block, first {@code md.numBlocks()} entries): each package writes into a
   * fresh array filled with derefine, and a block's tag is the maximum over packages, as in
   * Parthenon's {@code CheckAllRefinement}. With no criterion every block derefines.
   */
  public void checkRefinement(MeshData md, int[] tags) {
    int n = md.numBlocks();
    Arrays.fill(tags, 0, n, AmrTag.DEREFINE_VALUE);
    int[] packageTags = new int[n];
    for (StateDescriptor pkg : inOrder) {
      if (!pkg.hasCheckRefinement()) {
        continue;
      }
      Arrays.fill(packageTags, AmrTag.DEREFINE_VALUE);
      pkg.checkRefinement(md, packageTags);
      for (int b = 0; b < n; b++) {
        int tag = packageTags[b];
        if (tag < AmrTag.DEREFINE_VALUE || tag > AmrTag.REFINE_VALUE) {
          throw new IllegalStateException("package=" + pkg.label() + " wrote tag=" + tag
              + " for block=" + b + "; expected -1 (derefine), 0 (same) or 1 (refine)");
        }
        tags[b] = Math.max(tags[b], tag);
      }
    }
  }

  /** Every package's history outputs, packages in the order added. */
  public List<HistoryOutput> historyOutputs() {
    List<HistoryOutput> outputs = new ArrayList<>();
    for (StateDescriptor pkg : inOrder) {
      outputs.addAll(pkg.historyOutputs());
    }
    return outputs;
  }
}
