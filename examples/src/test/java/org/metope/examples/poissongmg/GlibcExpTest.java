package org.metope.examples.poissongmg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.examples.libm.GlibcExp;

/**
 * {@link GlibcExp} against what glibc's {@code exp} returned on the machine that made Parthenon's
 * references ({@code glibc-exp.txt}, README): the refined deck's two arguments where it is not
 * correctly rounded, 20 where its plain build differs from its FMA build, and 1,000 random
 * arguments of the deck's range {@code -10 r^2}. Controls: the plain build, and the correctly
 * rounded value on the deck's two arguments. Against the correctly rounded oracle of burgers'
 * functions: its bits but at the burgers decks' one argument where glibc misrounds.
 */
class GlibcExpTest {
  /** The arguments of the refined deck's exact solution where glibc is one unit below nearest. */
  private static final double[] DECK = {-17.01332092285156, -15.138626098632812};

  private static double[][] glibc() throws IOException {
    List<String> lines = PoissonGmgRuns.reference("glibc-exp.txt").stream()
        .filter(l -> !l.startsWith("#")).toList();
    double[][] out = new double[lines.size()][];
    for (int n = 0; n < out.length; n++) {
      String[] words = lines.get(n).split(" ");
      out[n] = new double[] {Double.parseDouble(words[0]), Double.parseDouble(words[1])};
    }
    return out;
  }

  @Test
  void givenGlibcsValues_thenTheFmaBuildsBitsAndNotThePlainOnes() throws IOException {
    double[][] pairs = glibc();
    assertEquals(1022, pairs.length);
    int plainOff = 0;
    for (double[] pair : pairs) {
      assertEquals(pair[1], GlibcExp.exp(pair[0]), 0.0, "x=" + pair[0]);
      if (GlibcExp.exp(pair[0], false) != pair[1]) {
        plainOff++;
      }
    }
    assertEquals(20, plainOff);
  }

  @Test
  void givenTheDecksTwoArguments_thenOneUnitBelowTheCorrectlyRoundedValue() throws IOException {
    double[][] pairs = glibc();
    for (int n = 0; n < DECK.length; n++) {
      assertEquals(DECK[n], pairs[n][0]);
      double nearest = RoundedExp.exp(DECK[n]);
      assertNotEquals(nearest, GlibcExp.exp(DECK[n]));
      assertEquals(Math.nextDown(nearest), GlibcExp.exp(DECK[n]), 0.0);
    }
  }

  /**
   * The {@code exp} rows of the correctly rounded oracle ({@code correctly-rounded/table.txt}, the
   * burgers decks' arguments among them) below 512 in magnitude (817 of 853; beyond, {@link
   * StrictMath#exp}): glibc's bits are the nearest double on all but {@code -0x1.77p-5}, where
   * glibc (and so burgers' reference) is one unit below.
   */
  @Test
  void givenTheOraclesArguments_thenTheNearestButOneUnitBelowAtTheBurgersDecksOne()
      throws IOException {
    int rows = 0;
    try (InputStream in = GlibcExpTest.class
        .getResourceAsStream("/correctly-rounded/table.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] w = line.trim().split(" ");
        double x = Double.parseDouble(w[1]);
        if (!w[0].equals("exp") || !(Math.abs(x) < 512.0)) {
          continue;
        }
        double nearest = Double.parseDouble(w[2]);
        double expected = x == -0x1.77p-5 ? Math.nextDown(nearest) : nearest;
        assertEquals(expected, GlibcExp.exp(x), 0.0, "x=" + Double.toHexString(x));
        rows++;
      }
    }
    assertEquals(817, rows);
    assertEquals(0x1.e91741e439d18p-1, GlibcExp.exp(-0x1.77p-5), 0.0);
  }

  @Test
  void givenZeroTinyAndHugeArguments_thenOneAndTheJdksValues() {
    assertEquals(1.0, GlibcExp.exp(0.0));
    assertEquals(1.0 + 0x1p-60, GlibcExp.exp(0x1p-60));
    assertEquals(StrictMath.exp(700.0), GlibcExp.exp(700.0));
    assertEquals(0.0, GlibcExp.exp(-800.0));
    assertTrue(Double.isInfinite(GlibcExp.exp(800.0)));
  }
}
