package org.metope.mesh.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeckParserTest {

  private static ParameterInput parse(String text) {
    return ParameterInput.parse("t.in", text, List.of());
  }

  private static String error(String text) {
    return assertThrows(InputError.class, () -> parse(text)).getMessage();
  }

  @Test
  void givenCommentsBlankLinesAndSpacing_thenKeysAndValuesAreTrimmed() {
    ParameterInput in = parse("""
        # a leading comment
        <parthenon/mesh>   # header comment

          nx1   =   64     # trailing comment
        \tx1min=-0.5
        label = a b c
        empty =
        """);
    assertEquals(64, in.getInteger("parthenon/mesh", "nx1"));
    assertEquals(-0.5, in.getReal("parthenon/mesh", "x1min"));
    assertEquals("a b c", in.getString("parthenon/mesh", "label"));
    assertEquals("", in.getString("parthenon/mesh", "empty"));
    assertEquals(List.of("nx1", "x1min", "label", "empty"), in.parameterNames("parthenon/mesh"));
  }

  @Test
  void givenContinuationLines_thenTheValueIsJoinedAndCommentsKept() {
    ParameterInput in = parse("""
        <Advection>
        vars = a, b, &   # first
               c, &
               d         # last
        after = 1
        """);
    assertEquals(List.of("a", "b", "c", "d"), in.getStringList("Advection", "vars"));
    assertEquals(1, in.getInteger("Advection", "after"));
    assertTrue(in.effectiveDeck().contains("# first # last"), in.effectiveDeck());
  }

  @Test
  void givenRepeatedKeysAndBlocks_thenLastValueWinsAtTheFirstPosition() {
    ParameterInput in = parse("""
        <a>
        x = 1
        y = 2
        <b>
        z = 3
        <a>
        x = 4
        """);
    assertEquals(4, in.getInteger("a", "x"));
    assertEquals(List.of("x", "y"), in.parameterNames("a"));
    assertEquals(List.of("a", "b"), in.blockNames());
    assertEquals("t.in:7: a/x = \"4\": expected something else", in.error("a", "x",
        "something else").getMessage());
  }

  @Test
  void givenParEnd_thenNothingAfterItIsRead() {
    ParameterInput in = parse("<a>\nx = 1\n<par_end>\n<b>\nthis is not a deck line\n");
    assertFalse(in.doesBlockExist("b"));
    assertEquals(1, in.getInteger("a", "x"));
  }

  @Test
  void givenEmptyBlock_thenItExists() {
    ParameterInput in = parse("<parthenon/job>\n<parthenon/output0>\nfile_type = hdf5\n");
    assertTrue(in.doesBlockExist("parthenon/job"));
    assertTrue(in.parameterNames("parthenon/job").isEmpty());
  }

  @Test
  void givenWindowsLineEndings_thenTheyAreIgnored() {
    ParameterInput in = parse("<a>\r\nx = 5\r\n");
    assertEquals(5, in.getInteger("a", "x"));
  }

  @Test
  void givenEverySyntaxError_thenOneLineNamingFileLineAndExpectation() {
    assertEquals("t.in:2: block header \"<parthenon/mesh\": expected '>' closing the block name",
        error("# c\n<parthenon/mesh\nnx1 = 4\n"));
    assertEquals("t.in:1: block header \"<  >\": expected a block name between '<' and '>'",
        error("<  >\n"));
    assertEquals("t.in:1: \"extra\" after block header <a>: expected nothing but a comment after"
        + " '>'", error("<a> extra # c\n"));
    assertEquals("t.in:2: \"nx1 = 4\": expected a block header such as <parthenon/mesh> before"
        + " the first key = value line", error("\nnx1 = 4\n"));
    assertEquals("t.in:2: \"nx1 4\" in block <a>: expected key = value", error("<a>\nnx1 4\n"));
    assertEquals("t.in:2: \"= 4\" in block <a>: expected a key name before '='",
        error("<a>\n= 4\n"));
    assertEquals("t.in:2: a/x = \"1, & 2\": expected nothing but a comment after the"
        + " continuation '&'", error("<a>\nx = 1, & 2\n"));
    assertEquals("t.in:3: block header <b> inside the value of a/x continued with '&': expected"
        + " the continued value to end first", error("<a>\nx = 1, &\n<b>\n"));
    assertEquals("t.in:2: a/x = \"1,\": expected another line after the continuation '&', but"
        + " the deck ends", error("<a>\nx = 1, &\n# only a comment\n"));
    assertEquals("t.in:3: \"y = 2\" continuing a/x after '&': expected a value, not a new"
        + " key = value (is there a stray '&' on the line before?)",
        error("<a>\nx = 1 &\ny = 2\n"));
  }
}
