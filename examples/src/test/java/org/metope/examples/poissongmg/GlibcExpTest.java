package org.metope.examples.poissongmg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link GlibcExp} against what glibc's {@code exp} returned on the machine that made Parthenon's
 * references ({@code glibc-exp.txt}, README): the refined deck's two arguments where it is not
 * correctly rounded, 20 where its plain build differs from its FMA build, and 1,000 random
 * arguments of the deck's range {@code -10 r^2}. Controls: the plain build, and the correctly
 * rounded value on the deck's two arguments.
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

  @Test
  void givenZeroTinyAndHugeArguments_thenOneAndTheJdksValues() {
    assertEquals(1.0, GlibcExp.exp(0.0));
    assertEquals(1.0 + 0x1p-60, GlibcExp.exp(0x1p-60));
    assertEquals(StrictMath.exp(700.0), GlibcExp.exp(700.0));
    assertEquals(0.0, GlibcExp.exp(-800.0));
    assertTrue(Double.isInfinite(GlibcExp.exp(800.0)));
  }
}
