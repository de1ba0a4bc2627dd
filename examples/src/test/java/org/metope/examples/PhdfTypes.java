package org.metope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Compares the HDF5 structure of two files type for type, read by h5py (HDF5's C library,
 * Debian's python3-h5py, as Parthenon's own tools and yt read them): every group, dataset and
 * attribute by name, with its type class, size, sign, string kind (variable-length or fixed, and
 * character set) and shape. Parthenon's readers take their types from the file, so a fixed-length
 * string where Parthenon writes a variable-length one comes back as {@code bytes} instead of
 * {@code str}, and a signed integer where it writes an unsigned one changes how yt reads it.
 *
 * <p>The only entries Metope's files may have beyond Parthenon's are the {@value #METOPE_OWN}
 * attributes of its datasets (README, "HDF5 outputs").
 */
public final class PhdfTypes {
  /** The one attribute of Metope's own (a dataset's checksum, for {@code FileIntegrity}). */
  public static final String METOPE_OWN = "MetopeDataCRC32C";

  private static final String SCRIPT = String.join("\n",
      "import sys, h5py",
      "def kind(t):",
      "    c = t.get_class()",
      "    if c == h5py.h5t.INTEGER:",
      "        sign = 'u' if t.get_sign() == h5py.h5t.SGN_NONE else 's'",
      "        return 'int %s%d' % (sign, t.get_size())",
      "    if c == h5py.h5t.FLOAT:",
      "        return 'float %d' % t.get_size()",
      "    if c == h5py.h5t.STRING:",
      "        cset = 'utf8' if t.get_cset() == h5py.h5t.CSET_UTF8 else 'ascii'",
      "        return 'string ' + ('vlen' if t.is_variable_str() else 'fixed') + ' ' + cset",
      "    return 'class %d size %d' % (c, t.get_size())",
      "f = h5py.File(sys.argv[1], 'r')",
      "def attrs(path, obj):",
      "    for k in obj.attrs:",
      "        a = obj.attrs.get_id(k)",
      "        print('attribute %s@%s %s %s' % (path, k, kind(a.get_type()), a.shape))",
      "def visit(name, obj):",
      "    if isinstance(obj, h5py.Dataset):",
      "        print('dataset /%s %s %s' % (name, kind(obj.id.get_type()), obj.shape))",
      "    else:",
      "        print('group /%s' % name)",
      "    attrs('/' + name, obj)",
      "attrs('', f)",
      "f.visititems(visit)");

  private PhdfTypes() {}

  /**
   * Fails, listing every difference, unless {@code ours} has exactly the groups, datasets and
   * attributes of Parthenon's {@code theirs} with the same types and shapes, plus {@value
   * #METOPE_OWN} on datasets.
   */
  public static void assertSameTypes(Path ours, Path theirs) {
    List<String> differences = differences(ours, theirs);
    assertTrue(differences.isEmpty(), ours.getFileName() + " against Parthenon's "
        + theirs.getFileName() + " (< Parthenon's, > Metope's):\n" + String.join("\n",
        differences));
  }

  /** What {@link #assertSameTypes} finds, one line per entry of one file only. */
  public static List<String> differences(Path ours, Path theirs) {
    TreeSet<String> mine = new TreeSet<>(structure(ours));
    mine.removeIf(line -> line.startsWith("attribute ") && line.contains("@" + METOPE_OWN + " "));
    TreeSet<String> parthenons = new TreeSet<>(structure(theirs));
    List<String> differences = new ArrayList<>();
    for (String line : parthenons) {
      if (!mine.contains(line)) {
        differences.add("< " + line);
      }
    }
    for (String line : mine) {
      if (!parthenons.contains(line)) {
        differences.add("> " + line);
      }
    }
    return differences;
  }

  /** Every group, dataset and attribute of {@code file} with its type and shape, as h5py reads. */
  public static List<String> structure(Path file) {
    List<String> lines = python(SCRIPT, file.toString());
    assertTrue(lines.size() > 10, "h5py read too little of " + file + ": " + lines);
    return lines;
  }

  /** Runs {@code script} with Debian's python3 (which has h5py) and returns its output lines. */
  public static List<String> python(String script, String... args) {
    List<String> command = new ArrayList<>(List.of(python3(), "-c", script));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(10, TimeUnit.MINUTES), "python3 did not finish");
      assertEquals(0, p.exitValue(), out);
      return out.lines().toList();
    } catch (IOException e) {
      throw new AssertionError("cannot run python3: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private static String python3() {
    return Path.of("/usr/bin/python3").toFile().canExecute() ? "/usr/bin/python3" : "python3";
  }
}
