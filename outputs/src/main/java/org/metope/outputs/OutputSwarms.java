package org.metope.outputs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.metope.comm.Communicator;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmStorage;
import org.metope.mesh.field.SwarmVariable;
import org.metope.mesh.input.ParameterInput;

/**
 * The swarms an HDF5 output or restart file writes, and which of their variables (Parthenon's
 * {@code OutputParameters::swarms} and {@code AllSwarmInfo}), with the gather of their particles to
 * rank 0 ({@link #gather}).
 *
 * <p>An hdf5 output writes the swarms listed in {@code swarms}, each with the variables of {@code
 * swarm_variables} and {@code <swarm>_variables} and always its positions; a restart file writes
 * every swarm declared {@code INDEPENDENT} or {@code RESTART}, all its variables. Parthenon
 * silently skips names that do not exist; here a swarm no package declares, or a variable none of
 * the listed swarms has, stops the run in one line naming the block and key. A name listed twice
 * is written once, as Parthenon's set of names does.
 */
final class OutputSwarms {
  /** One swarm written and the variables written of it, positions first. */
  record Selected(String swarm, int index, List<SwarmVariable> variables) {}

  /**
   * One swarm's particles gathered on rank 0: per block (gid order) the count and the offset of
   * its first particle, and per variable its values laid out {@code [components..., particle]}.
   */
  record Gathered(Selected selected, long[] counts, long[] offsets, int total,
      List<Object> values) {}

  private final List<Selected> selected;

  private OutputSwarms(List<Selected> selected) {
    this.selected = List.copyOf(selected);
  }

  /** Every swarm a restart file carries: those {@code INDEPENDENT} or {@code RESTART}. */
  static OutputSwarms forRestart(SwarmStorage storage) {
    List<Selected> out = new ArrayList<>();
    for (int s = 0; s < storage.layouts().size(); s++) {
      SwarmLayout layout = storage.layouts().get(s);
      if (layout.metadata().anySet(MetadataFlag.INDEPENDENT, MetadataFlag.RESTART)) {
        out.add(new Selected(layout.name(), s, layout.variables()));
      }
    }
    return new OutputSwarms(out);
  }

  /**
   * The swarms of hdf5 output block {@code block}.
   *
   * @throws org.metope.mesh.input.InputError for a swarm or variable that does not exist
   */
  static OutputSwarms fromInput(ParameterInput pin, String block, SwarmStorage storage) {
    List<String> names = pin.getOrAddStringList(block, "swarms", List.of());
    List<String> common = pin.getOrAddStringList(block, "swarm_variables", List.of());
    List<String> declared = storage.layouts().stream().map(SwarmLayout::name).toList();
    List<Selected> out = new ArrayList<>();
    Set<String> unmatched = new LinkedHashSet<>(common);
    for (String name : new LinkedHashSet<>(names)) {
      if (name.isBlank()) {
        continue;
      }
      if (!declared.contains(name)) {
        throw pin.error(block, "swarms", "names of swarms of this run (" + declared + "); "
            + name + " is none");
      }
      SwarmLayout layout = storage.layouts().get(storage.index(name));
      List<String> own = pin.getOrAddStringList(block, name + "_variables", List.of());
      for (String variable : own) {
        if (!variable.isBlank() && !layout.hasVariable(variable)) {
          throw pin.error(block, name + "_variables", "variables of swarm " + name + " ("
              + layout.variables().stream().map(SwarmVariable::name).toList() + "); " + variable
              + " is none");
        }
      }
      List<SwarmVariable> vars = new ArrayList<>();
      for (SwarmVariable v : layout.variables()) {
        boolean position = SwarmLayout.POSITIONS.contains(v.name());
        if (position || common.contains(v.name()) || own.contains(v.name())) {
          vars.add(v);
          unmatched.remove(v.name());
        }
      }
      out.add(new Selected(name, storage.index(name), vars));
    }
    unmatched.removeIf(String::isBlank);
    if (!unmatched.isEmpty()) {
      throw pin.error(block, "swarm_variables", "variables of the swarms in swarms = " + names
          + "; " + String.join(", ", unmatched) + " belongs to none");
    }
    return new OutputSwarms(out);
  }

  /** Whether no swarm is written. */
  boolean isEmpty() {
    return selected.isEmpty();
  }

  /** The swarms written: a restart's in the packages' order, an output's in its deck's. */
  List<Selected> selected() {
    return selected;
  }

  /**
   * Collective: defragments every written swarm of every block of this rank (as Parthenon's
   * output does, so that a restart continues with the slots the run it resumes had), and gathers
   * their particles to rank 0 in gid order, each block's in slot order. Returns them on rank 0,
   * an empty list on the others. {@code comm} is null for a single rank.
   */
  List<Gathered> gather(Mesh mesh, Communicator comm) {
    List<Gathered> out = new ArrayList<>();
    SwarmStorage storage = mesh.swarms();
    int nblocks = mesh.blocks().size();
    for (Selected sel : selected) {
      int width = 0;
      for (SwarmVariable v : sel.variables()) {
        width += v.components();
      }
      double[] counts = new double[nblocks];
      int local = 0;
      for (int lid = 0; lid < nblocks; lid++) {
        Swarm swarm = storage.swarm(lid, sel.index());
        swarm.defrag();
        counts[lid] = swarm.numActive();
        local += swarm.numActive();
      }
      double[] values = new double[local * width];
      int pos = 0;
      for (int lid = 0; lid < nblocks; lid++) {
        Swarm swarm = storage.swarm(lid, sel.index());
        for (int n = 0; n < swarm.numActive(); n++) {
          for (SwarmVariable v : sel.variables()) {
            for (int c = 0; c < v.components(); c++) {
              int at = v.firstComponent() + c;
              values[pos++] = v.integer() ? swarm.integer(at)[n] : swarm.real(at)[n];
            }
          }
        }
      }
      double[] allCounts = comm == null ? counts : comm.gather(counts, 0);
      double[] all = comm == null ? values : comm.gather(values, 0);
      if (comm == null || comm.rank() == 0) {
        out.add(arrange(sel, allCounts, all, width));
      }
    }
    return out;
  }

  private static Gathered arrange(Selected sel, double[] blockCounts, double[] all, int width) {
    long[] counts = new long[blockCounts.length];
    long[] offsets = new long[blockCounts.length];
    long offset = 0;
    for (int b = 0; b < counts.length; b++) {
      counts[b] = (long) blockCounts[b];
      offsets[b] = offset;
      offset += counts[b];
    }
    int total = Math.toIntExact(offset);
    List<Object> values = new ArrayList<>();
    int first = 0;
    for (SwarmVariable v : sel.variables()) {
      int nc = v.components();
      double[] reals = v.integer() ? null : new double[nc * total];
      int[] ints = v.integer() ? new int[nc * total] : null;
      for (int p = 0; p < total; p++) {
        for (int c = 0; c < nc; c++) {
          double value = all[p * width + first + c];
          if (v.integer()) {
            ints[c * total + p] = (int) value;
          } else {
            reals[c * total + p] = value;
          }
        }
      }
      values.add(v.integer() ? ints : reals);
      first += nc;
    }
    return new Gathered(sel, counts, offsets, total, values);
  }

  /**
   * The dimensions of variable {@code v}'s dataset for {@code total} particles, as Parthenon
   * writes them: its shape, then the particle index ({@code [n]}, {@code [3, n]}, {@code [3, 3,
   * n]}).
   */
  static int[] dimensions(SwarmVariable v, int total) {
    int[] shape = v.metadata().shape();
    if (v.components() == 1) {
      return new int[] {total};
    }
    int[] dims = new int[shape.length + 1];
    System.arraycopy(shape, 0, dims, 0, shape.length);
    dims[shape.length] = total;
    return dims;
  }
}
