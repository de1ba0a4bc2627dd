package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.examples.PhdfTypes;

/**
 * The type-for-type comparison ({@link PhdfTypes}) on Metope's output of Parthenon's gauss2d deck
 * against Parthenon's file for it, and its negative controls: the same output with one attribute
 * rewritten by h5py as Parthenon does not write it (a fixed-length string, a signed count, an
 * extra parameter) fails on exactly that attribute. The comparison runs on every deck with a
 * Parthenon reference file ({@link AdvectionHdf5ComparisonTest#assertSameAsParthenons}, the
 * adaptive, sparse and burgers comparisons, and their restart files).
 */
class PhdfTypesTest {
  @TempDir Path dir;
  private Path ours;
  private Path theirs;

  @BeforeEach
  void run() throws URISyntaxException {
    Path resources = Path.of(getClass().getResource("/parthenon/hdf5/gauss2d.in").toURI())
        .getParent();
    AdvectionRuns.run(resources.resolve("gauss2d.in"), dir);
    ours = dir.resolve("gauss2d.out9.final.phdf");
    theirs = resources.resolve("gauss2d.out9.final.phdf");
  }

  @Test
  void givenMetopesOutputOfParthenonsDeck_thenEveryTypeAndShapeIsParthenons() {
    PhdfTypes.assertSameTypes(ours, theirs);
  }

  @Test
  void givenCoordinatesRewrittenAsAFixedLengthString_thenTheComparisonNamesIt() throws Exception {
    Path changed = rewritten("import numpy as np\n"
        + "f['Info'].attrs['Coordinates'] = np.bytes_(b'UniformCartesian')");
    assertEquals(List.of("< attribute /Info@Coordinates string vlen ascii ()",
        "> attribute /Info@Coordinates string fixed ascii ()"),
        PhdfTypes.differences(changed, theirs));
  }

  @Test
  void givenNumComponentsRewrittenAsSigned_thenTheComparisonNamesIt() throws Exception {
    Path changed = rewritten("import numpy as np\n"
        + "f['Info'].attrs['NumComponents'] = np.array([2, 2], dtype=np.int64)");
    assertEquals(List.of("< attribute /Info@NumComponents int u8 (2,)",
        "> attribute /Info@NumComponents int s8 (2,)"), PhdfTypes.differences(changed, theirs));
  }

  @Test
  void givenAParameterParthenonDoesNotWrite_thenTheComparisonNamesIt() throws Exception {
    Path changed = rewritten("import numpy as np\n"
        + "f['Params'].attrs['advection_package/v_const'] = np.uint8(1)");
    assertEquals(List.of("> attribute /Params@advection_package/v_const int u1 ()"),
        PhdfTypes.differences(changed, theirs));
  }

  /** A copy of our output with {@code change} (Python, {@code f} the open file) applied by h5py. */
  private Path rewritten(String change) throws Exception {
    Path copy = dir.resolve("changed.phdf");
    Files.copy(ours, copy, StandardCopyOption.REPLACE_EXISTING);
    PhdfTypes.python("import sys, h5py\nf = h5py.File(sys.argv[1], 'r+')\n" + change
        + "\nf.close()", copy.toString());
    return copy;
  }
}
