package org.metope.outputs;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code .xdmf} companion of an HDF5 output (Parthenon's {@code XDMF::genXDMF}), through which
 * ParaView and VisIt open the file: a collection of one uniform grid per block, each a {@code
 * 3DRectMesh} whose vertex coordinates are hyperslabs of {@code /Locations/x,y,z} and whose cell
 * and node fields are hyperslabs of the field datasets, one XDMF attribute per component.
 *
 * <pre>
 * &lt;Grid Name="Mesh" GridType="Collection"&gt;          cycle and time
 *   &lt;Grid GridType="Uniform" Name="gid"&gt;               one per block
 *     &lt;Topology TopologyType="3DRectMesh" Dimensions="nz+1 ny+1 nx+1"/&gt;
 *     &lt;Geometry GeometryType="VXVYVZ"&gt;                row gid of Locations/x, y, z
 *     &lt;Attribute Name="advected" Center="Cell"&gt;       block gid, component c of a field
 * </pre>
 *
 * Only cell and node fields of at most one tensor dimension appear, as in Parthenon (whose XDMF
 * leaves face and edge fields out); other fields stay in the HDF5 file.
 *
 * <p>The blocks' grids differ only in the block's number, so a file's text is one block's grid,
 * rendered with a mark where the number goes, copied once per block with the number in place of
 * the mark.
 */
final class XdmfWriter {
  private static final PrintfFormat TIME = PrintfFormat.parse("%g");
  /** Where a block's number goes in the one block's grid rendered for all. */
  private static final String BLOCK = "\0";
  private static final byte[] CLOSE = "    </Grid>\n  </Domain>\n</Xdmf>\n"
      .getBytes(StandardCharsets.UTF_8);

  private XdmfWriter() {}

  /**
   * The XDMF file (UTF-8) for an HDF5 file.
   *
   * @param hdfName the HDF5 file's name as seen from the XDMF file's directory
   * @param nblocks number of blocks
   * @param cells cells per block along x1, x2, x3 in the output (ghosts included when written)
   * @param variables the fields in the file
   * @param singlePrecision whether fields are 32-bit floats
   */
  static byte[] render(String hdfName, int ncycle, double time, int nblocks, int[] cells,
      List<OutputVariable> variables, boolean singlePrecision) {
    StringBuilder x = new StringBuilder(4096);
    openCollection(x, ncycle, time);
    byte[] start = x.toString().getBytes(StandardCharsets.UTF_8);
    x.setLength(0);
    grid(x, hdfName, nblocks, cells, variables, singlePrecision);
    String[] parts = x.toString().split(BLOCK, -1);
    byte[][] pieces = new byte[parts.length][];
    int perBlock = 0;
    for (int p = 0; p < parts.length; p++) {
      pieces[p] = parts[p].getBytes(StandardCharsets.UTF_8);
      perBlock += pieces[p].length;
    }
    int marks = pieces.length - 1;
    long length = start.length + (long) perBlock * nblocks + CLOSE.length;
    for (int b = 0; b < nblocks; b++) {
      length += (long) marks * digits(b);
    }
    byte[] text = new byte[Math.toIntExact(length)];
    System.arraycopy(start, 0, text, 0, start.length);
    int at = start.length;
    for (int b = 0; b < nblocks; b++) {
      for (int p = 0; p < pieces.length; p++) {
        if (p > 0) {
          at = writeDecimal(b, text, at);
        }
        System.arraycopy(pieces[p], 0, text, at, pieces[p].length);
        at += pieces[p].length;
      }
    }
    System.arraycopy(CLOSE, 0, text, at, CLOSE.length);
    return text;
  }

  /** The number of decimal digits of {@code n} (at least 0). */
  private static int digits(int n) {
    int count = 1;
    for (int rest = n / 10; rest > 0; rest /= 10) {
      count++;
    }
    return count;
  }

  /** Writes {@code n} (at least 0) in decimal ASCII at {@code at}; the index after it. */
  private static int writeDecimal(int n, byte[] into, int at) {
    int end = at + digits(n);
    int rest = n;
    for (int i = end - 1; i >= at; i--) {
      into[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    return end;
  }

  /**
   * Appends the XML declaration, the domain and the opening of the collection grid with its cycle
   * and time, as Parthenon's files start (shared with {@link SwarmXdmfWriter}).
   */
  static void openCollection(StringBuilder x, int ncycle, double time) {
    x.append("<?xml version=\"1.0\" ?>\n");
    x.append("<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\">\n");
    x.append("<Xdmf Version=\"3.0\">\n");
    x.append("<Information Name=\"TimeVaryingMetaData\" Value=\"True\"/>\n");
    x.append("  <Domain>\n");
    x.append("  <Grid Name=\"Mesh\" GridType=\"Collection\">\n");
    x.append("    <Information Name=\"Cycle\" Value=\"").append(ncycle).append("\"/>\n");
    x.append("    <Time Value=\"").append(TIME.format(time).strip()).append("\"/>\n");
  }

  /** One block's grid, {@link #BLOCK} where its number goes. */
  private static void grid(StringBuilder x, String hdfName, int nblocks, int[] cells,
      List<OutputVariable> variables, boolean singlePrecision) {
    String dims = (cells[2] + 1) + " " + (cells[1] + 1) + " " + (cells[0] + 1);
    x.append("    <Grid GridType=\"Uniform\" Name=\"").append(BLOCK).append("\">\n");
    x.append("      <Topology TopologyType=\"3DRectMesh\" Dimensions=\"").append(dims)
        .append("\"/>\n");
    x.append("      <Geometry GeometryType=\"VXVYVZ\">\n");
    String[] axes = {"x", "y", "z"};
    for (int axis = 0; axis < 3; axis++) {
      coordinate(x, hdfName, nblocks, cells[axis], axes[axis]);
    }
    x.append("      </Geometry>\n");
    for (OutputVariable v : variables) {
      int tensorDims = v.blockDimensions().length - 3;
      // As Parthenon's: cell and node fields; faces and edges are not described. Nor are FINE
      // fields: Parthenon's entry gives them the block's grid with twice its cells, a shape
      // that does not fit the topology, and ParaView would refuse the file.
      boolean described = (v.isCell() || v.topologicalLocation().equals("Node"))
          && !v.field().metadata().isFine();
      if (described && tensorDims <= 1) {
        field(x, hdfName, nblocks, v, singlePrecision ? 4 : 8);
      }
    }
    x.append("    </Grid>\n");
  }

  private static void coordinate(StringBuilder x, String hdfName, int nblocks, int n,
      String axis) {
    x.append("        <DataItem ItemType=\"HyperSlab\" Dimensions=\"").append(n + 1)
        .append("\">\n");
    x.append("          <DataItem Dimensions=\"3 2\" NumberType=\"Int\" Format=\"XML\">\n");
    x.append("            ").append(BLOCK).append(" 0 1\n");
    x.append("            1 1 ").append(n + 1).append('\n');
    x.append("          </DataItem>\n");
    arrayReference(x, "          ", hdfName + ":/Locations/", axis,
        new int[] {nblocks, n + 1}, 8);
    x.append("        </DataItem>\n");
  }

  private static void field(StringBuilder x, String hdfName, int nblocks, OutputVariable v,
      int precision) {
    int[] blockDims = v.blockDimensions();
    int[] dims = new int[blockDims.length + 1];
    dims[0] = nblocks;
    System.arraycopy(blockDims, 0, dims, 1, blockDims.length);
    int rank = dims.length;
    String cells = dims[rank - 3] + " " + dims[rank - 2] + " " + dims[rank - 1];
    boolean vector = blockDims.length == 4;
    int entries = vector && v.componentNames().size() > 1 ? v.componentNames().size() : 1;
    for (int c = 0; c < entries; c++) {
      String name = entries == 1 ? v.label() : v.componentNames().get(c);
      x.append("      <Attribute Name=\"").append(name).append("\" Center=\"")
          .append(v.topologicalLocation()).append("\">\n");
      x.append("        <DataItem ItemType=\"HyperSlab\" Dimensions=\"").append(cells)
          .append("\">\n");
      if (vector) {
        x.append("          <DataItem Dimensions=\"3 5\" NumberType=\"Int\" Format=\"XML\">\n");
        x.append("            ").append(BLOCK).append(' ').append(c).append(" 0 0 0\n");
        x.append("            1 1 1 1 1\n");
        x.append("            1 1 ").append(cells).append('\n');
      } else {
        x.append("          <DataItem Dimensions=\"3 4\" NumberType=\"Int\" Format=\"XML\">\n");
        x.append("            ").append(BLOCK).append(" 0 0 0\n");
        x.append("            1 1 1 1\n");
        x.append("            1 ").append(cells).append('\n');
      }
      x.append("          </DataItem>\n");
      arrayReference(x, "          ", hdfName + ":/", v.label(), dims, precision);
      x.append("        </DataItem>\n");
      x.append("      </Attribute>\n");
    }
  }

  private static void arrayReference(StringBuilder x, String prefix, String path, String label,
      int[] dims, int precision) {
    x.append(prefix).append("<DataItem Format=\"HDF\" Dimensions=\"");
    for (int d = 0; d < dims.length; d++) {
      x.append(d == 0 ? "" : " ").append(dims[d]);
    }
    x.append("\" Name=\"").append(label).append("\" NumberType=\"Float\" Precision=\"")
        .append(precision).append("\">\n");
    x.append(prefix).append("  ").append(path).append(label).append('\n');
    x.append(prefix).append("</DataItem>\n");
  }
}
