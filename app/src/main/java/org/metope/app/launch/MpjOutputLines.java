package org.metope.app.launch;

/**
 * What MPJ's output forwarders call instead of {@code String.equals} once {@link
 * MpjOutputTransformer} has rewritten them; public because MPJ's classes call it.
 */
public final class MpjOutputLines {
  private MpjOutputLines() {}

  /**
   * {@code line.equals(other)}, except that it is false when {@code other} is {@code ""}: the
   * forwarders' test for a line to skip, which must let blank lines through.
   */
  public static boolean equalsUnlessBlank(String line, Object other) {
    return !"".equals(other) && line.equals(other);
  }
}
