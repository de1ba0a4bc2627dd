package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshBlock;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.field.Swarm;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The {@code .swarm.xdmf} companion written on two ranks, parsed as XML, every HDF5 path it names
 * opened with jhdf: the dimensions it states are the dataset's, its vertex count is the number of
 * particles, a hyperslab's start lies inside its dataset, and {@code swarm_positions} holds each
 * particle's {@code swarm.x, swarm.y, swarm.z}. The control: without {@code write_swarm_xdmf}
 * there is neither the file nor {@code swarm_positions}.
 */
class SwarmXdmfWriterTest {
  @TempDir Path dir;

  private static final String OUTPUT = "<parthenon/output0>\nfile_type = hdf5\ndt = 1\n"
      + "swarms = p\nswarm_variables = id, w, v, t\n";

  private static Mesh mesh(org.metope.mesh.input.ParameterInput pin,
      org.metope.comm.Communicator comm) {
    StateDescriptor pkg = OutputMeshes.pkg();
    pkg.addSwarm("p", Metadata.of());
    pkg.addSwarmValue("id", "p", Metadata.of(Metadata.INTEGER));
    pkg.addSwarmValue("w", "p", Metadata.of());
    pkg.addSwarmValue("v", "p", Metadata.builder(Metadata.VECTOR).shape(3).build());
    pkg.addSwarmValue("t", "p", Metadata.builder(Metadata.REAL).shape(2, 2).build());
    return OutputMeshes.mesh(pin, comm, pkg, "base");
  }

  /** Block gid g holds g + 1 particles, at distinct positions inside it. */
  private static void place(Mesh mesh) {
    for (MeshBlock block : mesh.blocks()) {
      Swarm swarm = mesh.swarms().swarm(block.lid(), "p");
      int count = block.gid() + 1;
      swarm.addEmptyParticles(count);
      for (int p = 0; p < count; p++) {
        int n = swarm.newSlot(p);
        for (int axis = 0; axis < 3; axis++) {
          double min = block.region().xmin(axis);
          double width = block.region().xmax(axis) - min;
          swarm.real(axis)[n] = min + width * (p + 0.5 + axis * 0.1) / (count + 1);
        }
      }
    }
  }

  private Path write(String extra) {
    OutputMeshes.writeFinal(dir, 2, OUTPUT + extra, SwarmXdmfWriterTest::mesh,
        SwarmXdmfWriterTest::place);
    return dir.resolve("om.out0.final.phdf");
  }

  @Test
  void givenWriteSwarmXdmf_thenEveryDatasetItNamesResolvesWithItsDimensions() throws Exception {
    Path phdf = write("write_swarm_xdmf = true\n");
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Document xml = factory.newDocumentBuilder().parse(phdf.resolveSibling("om.out0.final.phdf.swarm.xdmf").toFile());
    try (HdfFile h5 = new HdfFile(phdf)) {
      Object[] counts = (Object[]) ((Dataset) h5.getByPath("p/counts")).getData();
      int total = Arrays.stream(counts).mapToInt(c -> ((Number) c).intValue()).sum();
      assertEquals(1 + 2 + 3 + 4, total);
      Element topology = (Element) xml.getElementsByTagName("Topology").item(0);
      assertEquals("Polyvertex", topology.getAttribute("TopologyType"));
      assertEquals(String.valueOf(total), topology.getAttribute("NodesPerElement"));
      NodeList items = xml.getElementsByTagName("DataItem");
      int resolved = 0;
      for (int n = 0; n < items.getLength(); n++) {
        Element item = (Element) items.item(n);
        if (!item.getAttribute("Format").equals("HDF")) {
          continue;
        }
        String[] ref = item.getTextContent().strip().split(":", 2);
        assertEquals(phdf.getFileName().toString(), ref[0]);
        Dataset data = (Dataset) h5.getByPath(ref[1]);
        assertEquals(item.getAttribute("Dimensions"), join(data.getDimensions()), ref[1]);
        checkSlab(item, data.getDimensions());
        resolved++;
      }
      assertEquals(1 + 1 + 3 + 4 + 1, resolved, "positions, w, v, t, id");
      double[][] xyz = (double[][]) ((Dataset) h5.getByPath("p/SwarmVars/swarm_positions"))
          .getData();
      for (int axis = 0; axis < 3; axis++) {
        double[] x = (double[]) ((Dataset) h5.getByPath("p/SwarmVars/swarm." + "xyz".charAt(axis)))
            .getData();
        for (int p = 0; p < total; p++) {
          assertEquals(x[p], xyz[p][axis], 0.0, "particle " + p + " axis " + axis);
        }
      }
    }
  }

  /** A hyperslab's start (its XML sibling, first row) lies inside the dataset, rows of 1. */
  private static void checkSlab(Element item, int[] dims) {
    Element parent = (Element) item.getParentNode();
    if (!parent.getAttribute("ItemType").equals("HyperSlab")) {
      return;
    }
    Element spec = (Element) parent.getElementsByTagName("DataItem").item(0);
    String[] rows = spec.getTextContent().strip().split("\\s*\n\\s*");
    int[] start = Arrays.stream(rows[0].split(" ")).mapToInt(Integer::parseInt).toArray();
    int[] count = Arrays.stream(rows[2].split(" ")).mapToInt(Integer::parseInt).toArray();
    assertEquals(dims.length, start.length);
    for (int d = 0; d < dims.length; d++) {
      assertTrue(start[d] + count[d] <= dims[d], Arrays.toString(start) + " in "
          + Arrays.toString(dims));
    }
    assertEquals(parent.getAttribute("Dimensions"), String.valueOf(count[dims.length - 1]));
  }

  @Test
  void givenNoWriteSwarmXdmf_thenNeitherTheFileNorSwarmPositions() throws Exception {
    Path phdf = write("");
    assertFalse(Files.exists(phdf.resolveSibling("om.out0.final.phdf.swarm.xdmf")));
    try (HdfFile h5 = new HdfFile(phdf)) {
      Group vars = (Group) h5.getByPath("p/SwarmVars");
      assertFalse(vars.getChildren().containsKey("swarm_positions"));
      assertTrue(vars.getChildren().containsKey("swarm.x"));
    }
  }

  private static String join(int[] dims) {
    return String.join(" ", Arrays.stream(dims).mapToObj(String::valueOf).toArray(String[]::new));
  }
}
