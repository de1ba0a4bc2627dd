package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexShape;

class XdmfWriterTest {
  private static List<OutputVariable> variables() {
    Packages packages = new Packages();
    packages.add(OutputMeshes.pkg());
    return OutputVariable.selectByName(packages.resolve(), List.of("q", "v"),
        new IndexShape(8, 4, 0, 2), false);
  }

  private static String render(String hdfName, int ncycle, double time, int nblocks,
      List<OutputVariable> variables, boolean singlePrecision) {
    return new String(XdmfWriter.render(hdfName, ncycle, time, nblocks, new int[] {8, 4, 1},
        variables, singlePrecision), StandardCharsets.UTF_8);
  }

  private static int count(String text, String part) {
    return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
  }

  /**
   * Block numbers of one to four digits each stand where the block's number belongs: the grid's
   * name and the first index of each hyperslab's start, six per block (x, y, z, q and v's two
   * components), and nowhere else.
   */
  @Test
  void givenManyBlocks_thenEachGridNamesItsOwnNumber() {
    int nblocks = 1001;
    String x = render("a.phdf", 3, 0.5, nblocks, variables(), false);
    String[] grids = x.split("    <Grid GridType=\"Uniform\" Name=\"", -1);
    assertEquals(nblocks + 1, grids.length);
    for (int b = 0; b < nblocks; b++) {
      String grid = grids[b + 1];
      assertTrue(grid.startsWith(b + "\">\n"), grid);
      assertEquals(3, count(grid, "\n            " + b + " 0 1\n"), grid);
      assertEquals(1, count(grid, "\n            " + b + " 0 0 0\n"), grid);
      assertEquals(1, count(grid, "\n            " + b + " 0 0 0 0\n"), grid);
      assertEquals(1, count(grid, "\n            " + b + " 1 0 0 0\n"), grid);
      assertEquals(6, count(grid, "Dimensions=\"" + nblocks + " "), grid);
    }
    assertTrue(x.endsWith("      </Attribute>\n    </Grid>\n    </Grid>\n  </Domain>\n</Xdmf>\n"));
  }

  @Test
  void givenTwoBlocks_thenAGridPerBlockWithHyperslabsOfThatBlock() {
    String x = render("a.phdf", 7, 0.140625, 2, variables(), false);
    assertTrue(x.startsWith("<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\">\n"));
    assertTrue(x.contains("    <Information Name=\"Cycle\" Value=\"7\"/>\n"
        + "    <Time Value=\"0.140625\"/>\n"), x);
    assertEquals(2, x.split("<Grid GridType=\"Uniform\"", -1).length - 1);
    assertTrue(x.contains("<Grid GridType=\"Uniform\" Name=\"1\">\n"
        + "      <Topology TopologyType=\"3DRectMesh\" Dimensions=\"2 5 9\"/>"), x);
    assertTrue(x.contains("            1 0 1\n            1 1 9\n          </DataItem>\n"
        + "          <DataItem Format=\"HDF\" Dimensions=\"2 9\" Name=\"x\" NumberType=\"Float\""
        + " Precision=\"8\">\n            a.phdf:/Locations/x\n"), x);
    assertTrue(x.contains("<Attribute Name=\"q\" Center=\"Cell\">\n"
        + "        <DataItem ItemType=\"HyperSlab\" Dimensions=\"1 4 8\">\n"
        + "          <DataItem Dimensions=\"3 4\" NumberType=\"Int\" Format=\"XML\">\n"
        + "            1 0 0 0\n            1 1 1 1\n            1 1 4 8\n"), x);
    assertTrue(x.contains("<Attribute Name=\"v_vy\" Center=\"Cell\">\n"
        + "        <DataItem ItemType=\"HyperSlab\" Dimensions=\"1 4 8\">\n"
        + "          <DataItem Dimensions=\"3 5\" NumberType=\"Int\" Format=\"XML\">\n"
        + "            0 1 0 0 0\n"), x);
    assertTrue(x.endsWith("    </Grid>\n  </Domain>\n</Xdmf>\n"));
  }

  /** Parthenon's XDMF describes node fields (Center "Node") but not face and edge fields. */
  @Test
  void givenFaceEdgeAndNodeFields_thenOnlyTheNodeFieldIsDescribed() {
    StateDescriptor pkg = new StateDescriptor("elements");
    pkg.addField("b", Metadata.of(Metadata.FACE, Metadata.INDEPENDENT));
    pkg.addField("e", Metadata.of(Metadata.EDGE, Metadata.INDEPENDENT));
    pkg.addField("n", Metadata.of(Metadata.NODE, Metadata.INDEPENDENT));
    Packages packages = new Packages();
    packages.add(pkg);
    String x = render("a.phdf", 0, 0.0, 1, OutputVariable.selectByName(packages.resolve(),
        List.of("b", "e", "n"), new IndexShape(8, 4, 0, 2), false), false);
    assertTrue(x.contains("<Attribute Name=\"n\" Center=\"Node\">\n"
        + "        <DataItem ItemType=\"HyperSlab\" Dimensions=\"1 5 9\">\n"), x);
    assertFalse(x.contains("Name=\"b\""), x);
    assertFalse(x.contains("Name=\"e\""), x);
  }

  @Test
  void givenSinglePrecision_thenFieldsArePrecisionFourAndCoordinatesEight() {
    String x = render("a.phdf", 0, 0.0, 1, variables(), true);
    assertTrue(x.contains("Name=\"q\" NumberType=\"Float\" Precision=\"4\""), x);
    assertTrue(x.contains("Name=\"x\" NumberType=\"Float\" Precision=\"8\""), x);
    assertFalse(x.contains("Name=\"q\" NumberType=\"Float\" Precision=\"8\""), x);
  }
}
