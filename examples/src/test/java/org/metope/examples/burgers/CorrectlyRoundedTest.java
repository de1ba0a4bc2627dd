package org.metope.examples.burgers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link CorrectlyRounded} against an independent oracle: test resource {@code
 * correctly-rounded/table.txt}, written by {@code make_table.py} beside it with mpmath at 400 bits
 * and exact rounding to the nearest double (the arguments of Parthenon-VIBE's initial state on
 * 64 to 256 cells, random arguments near zero, in the decks' ranges, up to 2^1000, and known hard
 * cases). Its {@code exp} rows check {@link org.metope.examples.libm.GlibcExp} ({@code
 * GlibcExpTest}).
 */
class CorrectlyRoundedTest {
  private record Case(String function, double x, double expected) {}

  private static List<Case> table() throws IOException {
    List<Case> cases = new ArrayList<>();
    try (InputStream in = CorrectlyRoundedTest.class
        .getResourceAsStream("/correctly-rounded/table.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] w = line.trim().split(" ");
        if (w[0].equals("exp")) {
          continue;
        }
        cases.add(new Case(w[0], Double.parseDouble(w[1]), Double.parseDouble(w[2])));
      }
    }
    return cases;
  }

  private static DoubleUnaryOperator fast(String function) {
    return switch (function) {
      case "sin" -> CorrectlyRounded::sin;
      default -> CorrectlyRounded::cos;
    };
  }

  private static DoubleUnaryOperator wide(String function) {
    return switch (function) {
      case "sin" -> x -> CorrectlyRounded.sinCosWide(x, 0);
      default -> x -> CorrectlyRounded.sinCosWide(x, 1);
    };
  }

  private static DoubleUnaryOperator strict(String function) {
    return switch (function) {
      case "sin" -> StrictMath::sin;
      default -> StrictMath::cos;
    };
  }

  @Test
  void givenTheOraclesArguments_thenBothEvaluationsGiveItsBits() throws IOException {
    List<Case> cases = table();
    assertTrue(cases.size() > 1800, "table rows: " + cases.size());
    for (Case c : cases) {
      String what = c.function + "(" + Double.toHexString(c.x) + ")";
      assertEquals(Double.toHexString(c.expected),
          Double.toHexString(fast(c.function).applyAsDouble(c.x)), what);
      assertEquals(Double.toHexString(c.expected),
          Double.toHexString(wide(c.function).applyAsDouble(c.x)), what + " from 110 digits");
    }
  }

  @Test
  void givenTheOraclesArguments_thenStrictMathDiffersOnSome() throws IOException {
    // Negative control: the table tells last-bit errors apart, as fdlibm's shows.
    for (String function : List.of("sin", "cos")) {
      int differ = 0;
      for (Case c : table()) {
        if (c.function.equals(function)
            && strict(function).applyAsDouble(c.x) != c.expected) {
          differ++;
        }
      }
      assertTrue(differ > 10, function + ": StrictMath differs on " + differ + " arguments");
    }
  }

  @Test
  void givenSpecialArguments_thenIeeeResults() {
    assertEquals(Double.doubleToRawLongBits(-0.0),
        Double.doubleToRawLongBits(CorrectlyRounded.sin(-0.0)));
    assertEquals(1.0, CorrectlyRounded.cos(0.0));
    assertTrue(Double.isNaN(CorrectlyRounded.sin(Double.POSITIVE_INFINITY)));
  }
}
