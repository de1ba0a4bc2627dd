package org.metope.mesh.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValueParserTest {

  @Test
  void givenIntegerTexts_thenOnlyExactIntegersInRangeAreAccepted() {
    assertEquals(64, ValueParser.parseInteger("64"));
    assertEquals(-3, ValueParser.parseInteger(" -3 "));
    assertEquals(5, ValueParser.parseInteger("+5"));
    assertEquals(64, ValueParser.parseInteger("64.0"));
    assertEquals(1000, ValueParser.parseInteger("1e3"));
    assertEquals(Integer.MAX_VALUE, ValueParser.parseInteger("2147483647"));
    assertNull(ValueParser.parseInteger("2147483648"));
    assertNull(ValueParser.parseInteger("2.5"));
    assertNull(ValueParser.parseInteger("6x4"));
    assertNull(ValueParser.parseInteger(""));
    assertNull(ValueParser.parseInteger("nan"));
    assertNull(ValueParser.parseInteger("\u0661"));
  }

  @Test
  void givenRealTexts_thenStrtodSyntaxIsAcceptedAndJavaSuffixesRejected() {
    assertEquals(1.0, ValueParser.parseReal("1"));
    assertEquals(-2.5e-3, ValueParser.parseReal("-2.5e-3"));
    assertEquals(0.5, ValueParser.parseReal(".5"));
    assertEquals(5.0, ValueParser.parseReal("5."));
    assertEquals(Double.POSITIVE_INFINITY, ValueParser.parseReal("inf"));
    assertEquals(Double.NEGATIVE_INFINITY, ValueParser.parseReal("-Infinity"));
    assertTrue(Double.isNaN(ValueParser.parseReal("NaN")));
    assertNull(ValueParser.parseReal("1.0d"));
    assertNull(ValueParser.parseReal("0x1p3"));
    assertNull(ValueParser.parseReal("1e400"));
    assertNull(ValueParser.parseReal("1/3"));
    assertNull(ValueParser.parseReal("."));
  }

  @Test
  void givenBooleanTexts_thenParthenonWordsOnly() {
    assertEquals(Boolean.TRUE, ValueParser.parseBoolean("true"));
    assertEquals(Boolean.TRUE, ValueParser.parseBoolean("TRUE"));
    assertEquals(Boolean.TRUE, ValueParser.parseBoolean("1"));
    assertEquals(Boolean.FALSE, ValueParser.parseBoolean("False"));
    assertEquals(Boolean.FALSE, ValueParser.parseBoolean("0"));
    assertNull(ValueParser.parseBoolean("yes"));
    assertNull(ValueParser.parseBoolean("2"));
  }

  @Test
  void givenListTexts_thenSplitOnCommasDroppingOneTrailingEmpty() {
    assertEquals(List.of("a", "b c", "d"), ValueParser.splitList(" a ,b c,  d "));
    assertEquals(List.of(), ValueParser.splitList(""));
    assertEquals(List.of("1", "2"), ValueParser.splitList("1, 2,"));
    assertEquals(List.of("1", "", "2"), ValueParser.splitList("1,,2"));
  }

  @Test
  void givenAnyReal_thenFormatReadsBackToTheSameBits() {
    double[] values = {0.1, 1.0 / 3.0, -1e-300, 6.02214076e23, Double.MIN_VALUE,
        Double.MAX_VALUE, -0.0, 3.0};
    for (double v : values) {
      assertEquals(Double.doubleToRawLongBits(v),
          Double.doubleToRawLongBits(ValueParser.parseReal(ValueParser.formatReal(v))),
          Double.toString(v));
    }
    assertTrue(Double.isNaN(ValueParser.parseReal(ValueParser.formatReal(Double.NaN))));
    assertEquals(Double.NEGATIVE_INFINITY,
        ValueParser.parseReal(ValueParser.formatReal(Double.NEGATIVE_INFINITY)));
  }
}
