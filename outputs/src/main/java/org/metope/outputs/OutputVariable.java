package org.metope.outputs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.metope.mesh.field.ArenaLayout;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.FieldStorage;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;

/**
 * One field as an HDF5 output writes it (Parthenon's {@code OutputUtils::VarInfo}): its dataset
 * name, the dimensions of one block's values, its component names, and how a block's values are
 * copied out of (and, for restarts, back into) the field storage.
 *
 * <p>One block of a cell field is {@code [shape reversed..., nk, nj, ni]} with the extents of the
 * output's index domain (interior, or entire with {@code ghost_zones}); a face or edge field has
 * its three elements in front, {@code [3, shape reversed..., nk, nj, ni]}, and it and a node
 * field have the largest of its elements' extents (one more than cells along every active axis),
 * as Parthenon writes them; a {@code FINE} field has twice the interior cells along every active
 * axis (Parthenon's {@code f_cellbounds}); a field without topology is {@code [shape reversed...]}, or one
 * value when scalar. The dataset adds the block dimension in front. Values are in storage order:
 * element, component, {@code k, j, i}.
 *
 * <p>Component names follow Parthenon: a one-component field is {@code name}, or {@code
 * name_label} when it has a label; a field with n components is {@code name_label} per label when
 * it has n labels, else {@code name_0 .. name_n-1}.
 *
 * @param field the field
 * @param blockDimensions dimensions of one block's values, slowest first
 * @param componentNames one name per component
 */
record OutputVariable(FieldInfo field, int[] blockDimensions, List<String> componentNames) {

  /** The dataset name: the field's full name. */
  String label() {
    return field.name();
  }

  /** Values per block. */
  int valuesPerBlock() {
    int n = 1;
    for (int d : blockDimensions) {
      n *= d;
    }
    return n;
  }

  /** Whether the field is cell-centred. */
  boolean isCell() {
    return field.metadata().topology() == MetadataFlag.CELL;
  }

  /** Whether the field lives on the mesh: cells, faces, edges or nodes (not NONE). */
  boolean isMeshTied() {
    return field.metadata().topology() != MetadataFlag.NONE;
  }

  /** Parthenon's {@code TopologicalLocation} attribute: Cell, Face, Edge, Node or None. */
  String topologicalLocation() {
    return switch (field.metadata().topology()) {
      case CELL -> "Cell";
      case FACE -> "Face";
      case EDGE -> "Edge";
      case NODE -> "Node";
      default -> "None";
    };
  }

  /**
   * The fields an {@code hdf5} output with {@code variables} writes: those whose full name matches
   * one of the patterns followed by anything (Parthenon's {@code GetAnyVariables} with regular
   * expressions {@code name.*}), sorted by name.
   *
   * @throws IllegalArgumentException naming the pattern when one is not a regular expression
   */
  static List<OutputVariable> selectByName(ResolvedState state, List<String> variables,
      IndexShape cells, boolean ghosts) {
    List<Pattern> patterns = new ArrayList<>();
    for (String v : variables) {
      try {
        patterns.add(Pattern.compile(v + ".*"));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("variable pattern=" + v + " is not a regular expression");
      }
    }
    List<FieldInfo> chosen = new ArrayList<>();
    for (FieldInfo f : state.fields()) {
      for (Pattern p : patterns) {
        if (p.matcher(f.name()).matches()) {
          chosen.add(f);
          break;
        }
      }
    }
    return describe(chosen, cells, ghosts);
  }

  /**
   * The entries of {@code variables} that match no field of {@code state} (a misspelt name, or a
   * field of another configuration), in order.
   */
  static List<String> unmatched(ResolvedState state, List<String> variables) {
    List<String> unmatched = new ArrayList<>();
    for (String v : variables) {
      Pattern p = Pattern.compile(v + ".*");
      boolean any = false;
      for (FieldInfo f : state.fields()) {
        any |= p.matcher(f.name()).matches();
      }
      if (!any) {
        unmatched.add(v);
      }
    }
    return unmatched;
  }

  /** The names of the fields of {@code state}, comma-separated, for messages. */
  static String fieldNames(ResolvedState state) {
    List<String> names = new ArrayList<>();
    for (FieldInfo f : state.fields()) {
      names.add(f.name());
    }
    return String.join(", ", names);
  }

  /** The fields a restart file holds: every {@code INDEPENDENT} or {@code RESTART} field. */
  static List<OutputVariable> selectForRestart(ResolvedState state, IndexShape cells,
      boolean ghosts) {
    List<FieldInfo> chosen = new ArrayList<>();
    for (FieldInfo f : state.fields()) {
      if (f.metadata().anySet(MetadataFlag.INDEPENDENT, MetadataFlag.RESTART)) {
        chosen.add(f);
      }
    }
    return describe(chosen, cells, ghosts);
  }

  private static List<OutputVariable> describe(List<FieldInfo> fields, IndexShape cells,
      boolean ghosts) {
    IndexDomain domain = ghosts ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    List<OutputVariable> out = new ArrayList<>();
    for (FieldInfo f : fields) {
      boolean meshTied = f.metadata().topology() != MetadataFlag.NONE;
      List<TopologicalElement> elements = f.metadata().elements();
      // Parthenon's VarInfo: the element index leads when there are several.
      int lead = elements.size() > 1 ? 1 : 0;
      int[] shape = f.metadata().shape();
      int[] dims = new int[lead + shape.length + (meshTied ? 3 : 0)];
      dims[0] = elements.size();
      for (int s = 0; s < shape.length; s++) {
        dims[lead + s] = shape[shape.length - 1 - s];
      }
      if (meshTied) {
        int[] bounds = paddedBounds(elements, own(f, cells), domain);
        for (int axis = 0; axis < 3; axis++) {
          dims[dims.length - 1 - axis] = bounds[2 * axis + 1] - bounds[2 * axis] + 1;
        }
      }
      out.add(new OutputVariable(f, dims, componentNames(f)));
    }
    out.sort(Comparator.comparing(OutputVariable::label));
    return List.copyOf(out);
  }

  /**
   * The index space of {@code f}'s values on blocks of {@code cells}: twice the interior for a
   * {@code FINE} field (Parthenon's {@code VarInfo} takes {@code f_cellbounds} for it).
   */
  private static IndexShape own(FieldInfo f, IndexShape cells) {
    return f.metadata().isFine() ? cells.refined() : cells;
  }

  /**
   * The index range written along each axis, {@code s, e} per axis: the largest of the elements'
   * ranges (Parthenon's {@code GetPaddedBoundsKJI}), so an element whose range is shorter along
   * an axis writes the stored layer past it too.
   */
  private static int[] paddedBounds(List<TopologicalElement> elements, IndexShape cells,
      IndexDomain domain) {
    int[] bounds = new int[6];
    for (int axis = 0; axis < 3; axis++) {
      bounds[2 * axis] = cells.start(axis, domain, elements.get(0));
      for (TopologicalElement el : elements) {
        bounds[2 * axis + 1] = Math.max(bounds[2 * axis + 1], cells.end(axis, domain, el));
      }
    }
    return bounds;
  }

  private static List<String> componentNames(FieldInfo f) {
    int n = f.numComponents();
    List<String> labels = f.metadata().componentLabels();
    List<String> names = new ArrayList<>(n);
    if (n == 1) {
      names.add(labels.isEmpty() ? f.name() : f.name() + "_" + labels.get(0));
    } else {
      for (int c = 0; c < n; c++) {
        names.add(f.name() + "_" + (labels.size() == n ? labels.get(c) : Integer.toString(c)));
      }
    }
    return List.copyOf(names);
  }

  /**
   * Copies block {@code block}'s values of container {@code container} into {@code out} from
   * {@code start}, in dataset order; an unallocated sparse block gives {@code fill}.
   */
  void pack(FieldStorage storage, int container, int block, IndexShape cells, boolean ghosts,
      double[] out, int start, double fill) {
    int id = field.id();
    if (!storage.isAllocated(id, block)) {
      Arrays.fill(out, start, start + valuesPerBlock(), fill);
      return;
    }
    copy(storage, container, block, cells, ghosts, out, start, true);
  }

  /** Copies {@code in} from {@code start} (dataset order) into block {@code block}'s values. */
  void unpack(FieldStorage storage, int container, int block, IndexShape cells, boolean ghosts,
      double[] in, int start) {
    copy(storage, container, block, cells, ghosts, in, start, false);
  }

  private void copy(FieldStorage storage, int container, int block, IndexShape cells,
      boolean ghosts, double[] buffer, int start, boolean toBuffer) {
    ArenaLayout layout = storage.layout();
    int inst = layout.dataInstance(field.id(), container);
    double[] data = storage.data();
    int planes = field.metadata().elements().size() * field.numComponents();
    IndexDomain domain = ghosts ? IndexDomain.ENTIRE : IndexDomain.INTERIOR;
    int[] b = isMeshTied() ? paddedBounds(field.metadata().elements(), own(field, cells), domain)
        : new int[6];
    int is = b[0];
    int ie = b[1];
    int js = b[2];
    int je = b[3];
    int ks = b[4];
    int ke = b[5];
    int n = start;
    for (int c = 0; c < planes; c++) {
      for (int k = ks; k <= ke; k++) {
        for (int j = js; j <= je; j++) {
          int row = layout.index(inst, block, c, k, j, is);
          int length = ie - is + 1;
          if (toBuffer) {
            System.arraycopy(data, row, buffer, n, length);
          } else {
            System.arraycopy(buffer, n, data, row, length);
          }
          n += length;
        }
      }
    }
  }
}
