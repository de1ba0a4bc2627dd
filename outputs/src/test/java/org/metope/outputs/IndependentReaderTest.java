package org.metope.outputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.comm.InProcessCluster;
import org.metope.mesh.SimTime;
import org.metope.mesh.input.ParameterInput;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads Metope's HDF5 files with readers that share no code with the writer: h5py (HDF5's C
 * library, Debian's python3-h5py, which CI installs) for the values and attributes, and the XDMF
 * companion resolved against the file as a visualisation tool would.
 */
class IndependentReaderTest {
  @TempDir Path dir;
  private Path file;
  private Mesh mesh;

  @BeforeEach
  void write() {
    ParameterInput pin = OutputMeshes.pin("<parthenon/output0>\nfile_type = hdf5\n"
        + "variables = q, v, s\n");
    mesh = OutputMeshes.mesh(pin, InProcessCluster.singleRank());
    OutputMeshes.fill(mesh);
    SimTime tm = new SimTime(0.0, 1.0, -1, 0, 1, 0, 0.125);
    new Outputs(mesh, pin, tm, dir).makeOutputs(mesh, tm, OutputSignal.NONE, () -> { });
    file = dir.resolve("om.out0.00000.phdf");
  }

  /** A python3 that can import h5py: Debian's first, then whatever is on the path. */
  static String python() throws IOException, InterruptedException {
    for (String candidate : List.of("/usr/bin/python3", "python3")) {
      try {
        Process p = new ProcessBuilder(candidate, "-c", "import h5py").redirectErrorStream(true)
            .start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return candidate;
        }
      } catch (IOException e) {
        // not this one
      }
    }
    throw new AssertionError("no python3 with h5py: install python3-h5py (.ci/run does)");
  }

  static List<String> runPython(String script, Path file) throws Exception {
    Process p = new ProcessBuilder(python(), "-c", script, file.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "h5py did not finish");
    assertEquals(0, p.exitValue(), out);
    return out.lines().toList();
  }

  @Test
  void givenAnOutput_thenH5pyReadsTheRunsValuesAndParthenonsAttributes() throws Exception {
    List<String> lines = runPython(String.join("\n",
        "import sys, h5py",
        "f = h5py.File(sys.argv[1], 'r')",
        "for name in ['q', 'v', 's_1']:",
        "    d = f[name]",
        "    print(name, d.shape, d.dtype, ' '.join(float(x).hex() for x in d[()].ravel()))",
        "i = f['Info'].attrs",
        "print('blocks', int(i['NumMeshBlocks']), int(i['NCycle']), float(i['Time']))",
        "print('names', [str(n.decode() if isinstance(n, bytes) else n)"
            + " for n in i['ComponentNames']])",
        "print('sparse', f['SparseInfo'][()].ravel().tolist())"), file);
    assertEquals("blocks 4 0 0.0", lines.get(3));
    assertEquals("names ['q', 's_1', 's_2', 'v_vx', 'v_vy']", lines.get(4));
    assertEquals("sparse [0, 0, 1, 0, 0, 0, 0, 0]", lines.get(5));
    String[] q = lines.get(0).split(" ");
    assertEquals("q (4, 1, 4, 8) float64", String.join(" ", List.of(q).subList(0, 6)));
    double[] held = heldInterior(0, 1);
    assertEquals(held.length, q.length - 6);
    for (int n = 0; n < held.length; n++) {
      assertEquals(held[n], Double.parseDouble(q[6 + n]), "q value " + n);
    }
    assertTrue(lines.get(1).startsWith("v (4, 2, 1, 4, 8) float64 "), lines.get(1));
    assertEquals(heldInterior(1, 2).length, lines.get(1).split(" ").length - 7);
  }

  /** What the mesh holds for {@code field} on the interior, blocks in gid order, c k j i. */
  private double[] heldInterior(int field, int ncomp) {
    var layout = mesh.fields().layout();
    int inst = layout.dataInstance(field, 0);
    List<Double> out = new ArrayList<>();
    for (int b = 0; b < 4; b++) {
      for (int c = 0; c < ncomp; c++) {
        for (int j = 2; j < 6; j++) {
          for (int i = 2; i < 10; i++) {
            out.add(mesh.fields().data()[layout.index(inst, b, c, 0, j, i)]);
          }
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  @Test
  void givenTheXdmfCompanion_thenEveryReferenceNamesADatasetOfTheStatedShape() throws Exception {
    Path xdmf = dir.resolve("om.out0.00000.phdf.xdmf");
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    var doc = factory.newDocumentBuilder().parse(xdmf.toFile());
    NodeList grids = doc.getElementsByTagName("Grid");
    assertEquals(1 + 4, grids.getLength(), "the collection and one grid per block");
    NodeList items = doc.getElementsByTagName("DataItem");
    int references = 0;
    try (HdfFile h5 = new HdfFile(file)) {
      for (int n = 0; n < items.getLength(); n++) {
        Element e = (Element) items.item(n);
        if (!"HDF".equals(e.getAttribute("Format"))) {
          continue;
        }
        String[] where = e.getTextContent().strip().split(":", 2);
        assertEquals(file.getFileName().toString(), where[0]);
        Dataset d = h5.getDatasetByPath(where[1]);
        String dims = String.join(" ", java.util.Arrays.stream(d.getDimensions())
            .mapToObj(Integer::toString).toList());
        assertEquals(dims, e.getAttribute("Dimensions"), where[1]);
        references++;
      }
    }
    // Per block: x, y, z, q, v_vx, v_vy, s_1, s_2.
    assertEquals(4 * 8, references);
    String text = Files.readString(xdmf);
    assertTrue(text.contains("<Attribute Name=\"v_vy\" Center=\"Cell\">"), text);
    assertTrue(text.contains("<Topology TopologyType=\"3DRectMesh\" Dimensions=\"2 5 9\"/>"));
  }
}
