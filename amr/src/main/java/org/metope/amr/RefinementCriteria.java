package org.metope.amr;

import java.util.ArrayList;
import java.util.List;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.FieldInfo;
import org.metope.mesh.field.ResolvedState;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.input.ParameterInput;

/**
 * Reads the built-in refinement criteria of a deck (Parthenon's {@code Refinement::Initialize}):
 * {@code <parthenon/refinement0>}, {@code <parthenon/refinement1>}, ... up to the first missing
 * number. Keys and defaults are Parthenon's:
 *
 * <ul>
 *   <li>{@code method}: {@code derivative_order_1}, {@code derivative_order_2} or {@code
 *       magnitude} (required);
 *   <li>{@code field}: the field's name (required);
 *   <li>{@code vector_i}, {@code tensor_ij} or {@code tensor_ijk}: the component (default 0),
 *       indices of the field's shape from its last dimension back;
 *   <li>{@code refine_tol} (0.5), {@code derefine_tol} (0.05);
 *   <li>{@code max_level} (default {@code <parthenon/mesh> numlevel}; a larger value is lowered
 *       to {@code numlevel} with a warning, as Parthenon does). As in Parthenon's runs, a block
 *       refines for the criterion only while its level above the root grid is below it;
 *   <li>{@code comparator} for {@code magnitude}: {@code greater_than} (default) or {@code
 *       less_than}.
 * </ul>
 *
 * Unlike Parthenon, which silently ignores a criterion on a field that does not exist, a missing
 * field is a deck error. A criterion on a {@code FINE} field measures the field's own cells (its
 * interior and one fine ghost layer), where Parthenon's reads the block's cell indices of it, a
 * corner of its cells.
 */
public final class RefinementCriteria {
  /** Prefix of the criteria's deck blocks. */
  public static final String BLOCK_PREFIX = "parthenon/refinement";
  /** The methods a deck may name. */
  public static final List<String> METHODS =
      List.of("derivative_order_1", "derivative_order_2", "magnitude");

  private RefinementCriteria() {}

  /** What reading the sections gives: the criteria in deck order and warnings for the user. */
  public record Read(List<RefinementCriterion> criteria, List<String> warnings) {}

  /**
   * Reads every {@code <parthenon/refinementN>} section for {@code mesh}, whose fields are
   * initialised.
   *
   * @throws org.metope.mesh.input.InputError for a bad method, field, component or value
   */
  public static Read fromInput(ParameterInput pin, Mesh mesh) {
    List<RefinementCriterion> criteria = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    int numLevel = pin.getOrAddInteger("parthenon/mesh", "numlevel", 1);
    IndexShape cells = new IndexShape(mesh.config().blockNx1(),
        mesh.ndim() > 1 ? mesh.config().blockNx2() : 0,
        mesh.ndim() > 2 ? mesh.config().blockNx3() : 0, mesh.nghost());
    for (int n = 0; pin.doesBlockExist(BLOCK_PREFIX + n); n++) {
      String block = BLOCK_PREFIX + n;
      String method = pin.getString(block, "method", METHODS);
      FieldInfo field = field(pin, block, mesh.resolvedPackages());
      int component = component(pin, block, field);
      double refineTol = pin.getOrAddReal(block, "refine_tol", 0.5);
      double derefineTol = pin.getOrAddReal(block, "derefine_tol", 0.05);
      int maxLevel = pin.getOrAddInteger(block, "max_level", numLevel);
      if (maxLevel > numLevel) {
        warnings.add("<" + block + "> max_level = " + maxLevel + " exceeds <parthenon/mesh>"
            + " numlevel = " + numLevel + "; using max_level = " + numLevel);
        maxLevel = numLevel;
      }
      var settings = new RefinementCriterion.Settings(field.id(), component, refineTol,
          derefineTol, maxLevel);
      // A FINE field is measured over its own cells (Parthenon reads it with the block's cell
      // bounds, which cover a corner of them).
      IndexShape measured = field.metadata().isFine() ? cells.refined() : cells;
      criteria.add(switch (method) {
        case "derivative_order_1" -> new DerivativeCriterion(settings, measured, 1);
        case "derivative_order_2" -> new DerivativeCriterion(settings, measured, 2);
        default -> new MagnitudeCriterion(settings, measured, pin.getOrAddString(block,
            "comparator", "greater_than", List.of("greater_than", "less_than"))
            .equals("greater_than"));
      });
    }
    return new Read(List.copyOf(criteria), List.copyOf(warnings));
  }

  private static FieldInfo field(ParameterInput pin, String block, ResolvedState state) {
    String name = pin.getString(block, "field");
    if (!state.hasField(name)) {
      throw pin.error(block, "field", "the name of a field, one of " + state.names());
    }
    return state.field(name);
  }

  /**
   * The flattened component named by {@code tensor_ijk}, {@code tensor_ij} or {@code vector_i}
   * (Parthenon looks for them in that order): indices aligned with the last dimensions of the
   * field's shape, flattened row-major.
   */
  private static int component(ParameterInput pin, String block, FieldInfo field) {
    String key = null;
    int count = 0;
    for (String k : List.of("tensor_ijk", "tensor_ij", "vector_i")) {
      if (pin.doesParameterExist(block, k)) {
        key = k;
        count = k.length() - k.indexOf('_') - 1;
        break;
      }
    }
    if (key == null) {
      return 0;
    }
    int[] index = pin.getIntegerList(block, key);
    int[] shape = field.metadata().shape();
    if (index.length != count || count > Math.max(shape.length, 1)) {
      throw pin.error(block, key, count + " indices within the shape of " + field.name());
    }
    int component = 0;
    for (int n = 0; n < count; n++) {
      int dim = shape.length == 0 ? 1 : shape[shape.length - count + n];
      if (index[n] < 0 || index[n] >= dim) {
        throw pin.error(block, key, "indices within the shape of " + field.name() + " "
            + java.util.Arrays.toString(shape));
      }
      component = component * dim + index[n];
    }
    return component;
  }
}
