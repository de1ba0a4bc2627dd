package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.metope.app.Application;
import org.metope.app.ForwardingApplication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.ProblemGenerator;
import org.metope.examples.PhdfSamples;
import org.metope.examples.advection.AdvectionHdf5ComparisonTest;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

/**
 * Runs the Parthenon-VIBE reference decks (test resources {@code parthenon/burgers}, see the
 * README there) and compares with what Parthenon's {@code burgers-benchmark} wrote for them: the
 * history file as printed ({@code %.14e}), and the final fields to 1e-12 with blocks matched by
 * level and logical location, from the whole {@code .phdf} file for the 2D cases and from {@link
 * PhdfSamples} for the 3D ones.
 *
 * <p>Every printed digit matches once the initial state also uses glibc's value at the one argument
 * where glibc's {@code sin} is not correctly rounded ({@link #GLIBC}; {@code exp} is glibc's
 * already); with Metope's correctly rounded {@code sin}, those cells of {@code w5_2d_l3} differ by
 * an ulp and, in some later rows, so does the last printed digit of a few octant sums.
 *
 * <p>Every deck runs with {@code <burgers> prolongate_ghosts = false} ({@link #PARTHENON}):
 * Parthenon's benchmark driver does not prolongate ghost cells that face a coarser block in its
 * stages, which Metope does by default (the consistent scheme). The stage update is the default,
 * Parthenon's for these decks' {@code rk2}.
 */
class BurgersParthenonComparisonTest {
  /** The override that reproduces Parthenon's benchmark driver. */
  static final String PARTHENON = "burgers/prolongate_ghosts=false";

  @TempDir Path dir;

  /**
   * The functions of Parthenon's run, glibc 2.36's: {@link BurgersProblem#FUNCTIONS} (whose {@code
   * exp} is glibc's, {@code exp(-0x1.77p-5)} at {@code x = +-0.0390625} included) but at the
   * argument of these decks' cells where glibc's {@code sin} rounds the other way (mpmath at 400
   * bits puts the exact value 0.5014 ulp from glibc's result): {@code
   * sin(+-0x1.534ac0f19860cp-3)}, at {@code x = +-0.052734375} (level 2 of {@code w5_2d_l3}
   * only).
   */
  static final BurgersProblem.Functions GLIBC = new BurgersProblem.Functions(
      BurgersProblem.FUNCTIONS.tanh(), BurgersProblem.FUNCTIONS.cos(),
      x -> Math.abs(x) == 0x1.534ac0f19860cp-3 ? Math.copySign(0x1.51bdf8597c5f2p-3, x)
          : CorrectlyRounded.sin(x),
      BurgersProblem.FUNCTIONS.exp());

  private static Path resource(String name) {
    try {
      return Path.of(BurgersParthenonComparisonTest.class
          .getResource("/parthenon/burgers/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Metope as it runs: block counts and cycles exactly; the values of three decks in every printed
   * digit, those of {@code w5_2d_l3} to one unit of the last printed digit (the cells of {@link
   * #GLIBC}'s {@code sin} argument differ by an ulp from the start).
   */
  @ParameterizedTest
  @CsvSource({"w5_3d_l2, 0", "lin_3d_l3, 0", "w5_2d_l3, 1", "lin_2d_l2, 0"})
  void givenAReferenceDeck_thenHistoryBlocksAndFinalFieldsEqualParthenons(String name,
      int lastDigitUnits) throws IOException {
    BurgersRuns.run(resource(name + ".in"), dir, PARTHENON);

    assertSameHistory(Files.readAllLines(resource(name + ".out1.hst")),
        Files.readAllLines(dir.resolve(name + ".out1.hst")), lastDigitUnits);
    Path ours = dir.resolve(name + ".out0.final.phdf");
    String phdf = name + ".out0.final.phdf";
    if (BurgersParthenonComparisonTest.class.getResource("/parthenon/burgers/" + phdf) != null) {
      AdvectionHdf5ComparisonTest.assertSameAsParthenons(ours, resource(phdf), 1e-14);
    } else {
      PhdfSamples.assertSame(PhdfSamples.read(resource(name + ".final-samples.txt")),
          PhdfSamples.samples(ours), 1e-12);
    }
  }

  /**
   * With glibc's values at its two misrounded arguments, the whole history in every printed
   * digit: the reduction order, the time steps and the evolution are Parthenon's.
   */
  @ParameterizedTest
  @ValueSource(strings = {"w5_3d_l2", "lin_3d_l3", "w5_2d_l3", "lin_2d_l2"})
  void givenGlibcsInitialState_thenTheHistoryEqualsParthenonsInEveryDigit(String name)
      throws IOException {
    Application glibc = new ForwardingApplication(new BurgersApplication()) {
      @Override
      public ProblemGenerator problemGenerator(Packages packages) {
        return (md, b) -> BurgersProblem.generate(md, b, GLIBC);
      }
    };
    BurgersRuns.run(glibc, ParameterInput.load(resource(name + ".in"), List.of(PARTHENON)), dir,
        InProcessCluster.singleRank());

    assertSameHistory(Files.readAllLines(resource(name + ".out1.hst")),
        Files.readAllLines(dir.resolve(name + ".out1.hst")), 0);
  }

  /**
   * Same header; per row the same strings for cycle and block count, and for time, dt and the
   * octant sums the same exponent and 15 digits differing by at most {@code lastDigitUnits} as an
   * integer (0: the same string).
   */
  private static void assertSameHistory(List<String> theirs, List<String> ours,
      int lastDigitUnits) {
    assertEquals(theirs.size(), ours.size(), "history rows");
    for (int row = 0; row < theirs.size(); row++) {
      String t = theirs.get(row);
      String o = ours.get(row);
      if (t.startsWith("#")) {
        assertEquals(t, o, "history header");
        continue;
      }
      String[] tw = t.trim().split("\\s+");
      String[] ow = o.trim().split("\\s+");
      assertEquals(tw.length, ow.length, o);
      for (int c = 0; c < tw.length; c++) {
        String where = "row " + row + " column " + (c + 1) + ": " + ow[c] + " against " + tw[c];
        if (c == 2 || c == 3 || tw[c].equals(ow[c])) {
          assertEquals(tw[c], ow[c], where);
          continue;
        }
        String[] te = tw[c].split("e");
        String[] oe = ow[c].split("e");
        assertEquals(te[1], oe[1], where);
        long units = Math.abs(Long.parseLong(te[0].replace(".", ""))
            - Long.parseLong(oe[0].replace(".", "")));
        assertTrue(units <= lastDigitUnits, where);
      }
    }
  }
}
