package org.metope.outputs;

import java.util.List;
import org.metope.mesh.field.SwarmLayout;
import org.metope.mesh.field.SwarmVariable;

/**
 * The {@code .swarm.xdmf} companion of an HDF5 output with {@code write_swarm_xdmf = true}
 * (Parthenon's swarm part of {@code XDMF::genXDMF}), through which ParaView and VisIt show the
 * particles: a collection of one uniform grid per swarm, whose {@code Polyvertex} topology has
 * one vertex per particle at the rows of {@code SwarmVars/swarm_positions}, and one node
 * attribute per component of every other variable written (and {@code id}).
 *
 * <pre>
 * &lt;Grid Name="Mesh" GridType="Collection"&gt;               cycle and time
 *   &lt;Grid GridType="Uniform" Name="swarm"&gt;                  one per swarm
 *     &lt;Topology TopologyType="Polyvertex" NodesPerElement="np"/&gt;
 *     &lt;Geometry GeometryType="XYZ"&gt;                        SwarmVars/swarm_positions [np, 3]
 *     &lt;Attribute Name="swarm/v_001" Center="Node"&gt;         component 1 of v [3, np]
 * </pre>
 *
 * A swarm without particles is left out (its file has no {@code SwarmVars} datasets). A variable
 * with components appears as one scalar attribute per component, a hyperslab of its
 * dataset (Parthenon's way for tensors; Parthenon joins a vector's three into one attribute).
 */
final class SwarmXdmfWriter {
  private SwarmXdmfWriter() {}

  /**
   * The XDMF text for the swarms of an HDF5 file.
   *
   * @param hdfName the HDF5 file's name as seen from the XDMF file's directory
   * @param swarms the swarms written, with their counts
   */
  static String render(String hdfName, int ncycle, double time,
      List<OutputSwarms.Gathered> swarms) {
    StringBuilder x = new StringBuilder(4096);
    XdmfWriter.openCollection(x, ncycle, time);
    for (OutputSwarms.Gathered swarm : swarms) {
      String name = swarm.selected().swarm();
      int np = swarm.total();
      if (np == 0) {
        continue;
      }
      x.append("    <Grid GridType=\"Uniform\" Name=\"").append(name).append("\">\n");
      x.append("      <Topology TopologyType=\"Polyvertex\" NodesPerElement=\"").append(np)
          .append("\">\n      </Topology>\n");
      x.append("      <Geometry GeometryType=\"XYZ\">\n");
      dataItem(x, "        ", hdfName, name, "swarm_positions", np + " 3", "Float");
      x.append("      </Geometry>\n");
      boolean hasId = false;
      for (SwarmVariable v : swarm.selected().variables()) {
        if (!SwarmLayout.POSITIONS.contains(v.name())) {
          attributes(x, hdfName, name, v, np);
          hasId |= v.name().equals("id");
        }
      }
      if (!hasId) {
        attribute(x, hdfName, name, "id", "Int", new int[] {np}, null);
      }
      x.append("    </Grid>\n");
    }
    x.append("    </Grid>\n");
    x.append("  </Domain>\n");
    x.append("</Xdmf>\n");
    return x.toString();
  }

  /** One scalar attribute per component of {@code v}, whose dataset is {@code [shape..., np]}. */
  private static void attributes(StringBuilder x, String hdfName, String swarm, SwarmVariable v,
      int np) {
    String type = v.integer() ? "Int" : "Float";
    int[] dims = OutputSwarms.dimensions(v, np);
    if (dims.length == 1) {
      attribute(x, hdfName, swarm, v.name(), type, dims, null);
      return;
    }
    int[] index = new int[dims.length - 1];
    for (int c = 0; c < v.components(); c++) {
      for (int d = index.length - 1, rest = c; d >= 0; d--) {
        index[d] = rest % dims[d];
        rest /= dims[d];
      }
      attribute(x, hdfName, swarm, v.name(), type, dims, index);
    }
  }

  /** An attribute reading all of dataset {@code variable}, or the row {@code index} of it. */
  private static void attribute(StringBuilder x, String hdfName, String swarm, String variable,
      String type, int[] dims, int[] index) {
    StringBuilder name = new StringBuilder(swarm).append('/').append(variable);
    if (index != null) {
      for (int i : index) {
        name.append(String.format("_%03d", i));
      }
    }
    x.append("      <Attribute Name=\"").append(name)
        .append("\" AttributeType=\"Scalar\" Center=\"Node\">\n");
    int np = dims[dims.length - 1];
    String shape = join(dims);
    if (index == null) {
      dataItem(x, "        ", hdfName, swarm, variable, shape, type);
    } else {
      StringBuilder start = new StringBuilder();
      StringBuilder stride = new StringBuilder();
      StringBuilder count = new StringBuilder();
      for (int i : index) {
        start.append(i).append(' ');
        stride.append("1 ");
        count.append("1 ");
      }
      x.append("        <DataItem ItemType=\"HyperSlab\" Dimensions=\"").append(np)
          .append("\">\n");
      x.append("          <DataItem Dimensions=\"3 ").append(dims.length)
          .append("\" Format=\"XML\">\n");
      x.append("            ").append(start).append("0\n");
      x.append("            ").append(stride).append("1\n");
      x.append("            ").append(count).append(np).append('\n');
      x.append("          </DataItem>\n");
      dataItem(x, "          ", hdfName, swarm, variable, shape, type);
      x.append("        </DataItem>\n");
    }
    x.append("      </Attribute>\n");
  }

  private static void dataItem(StringBuilder x, String indent, String hdfName, String swarm,
      String variable, String dimensions, String type) {
    x.append(indent).append("<DataItem Format=\"HDF\" Dimensions=\"").append(dimensions)
        .append("\" Name=\"").append(variable).append("\" NumberType=\"").append(type)
        .append('"').append(type.equals("Float") ? " Precision=\"8\"" : "").append(">\n");
    x.append(indent).append("  ").append(hdfName).append(":/").append(swarm)
        .append("/SwarmVars/").append(variable).append('\n');
    x.append(indent).append("</DataItem>\n");
  }

  private static String join(int[] dims) {
    StringBuilder s = new StringBuilder();
    for (int d : dims) {
      s.append(s.length() == 0 ? "" : " ").append(d);
    }
    return s.toString();
  }
}
