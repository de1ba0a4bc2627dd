package uk.ac.manchester.tornado.api.enums;

/** Stand-in: transfer modes; the values are TornadoVM's, since javac inlines them. */
public class DataTransferMode {
  /** Copied at the first execution of a plan only. */
  public static final int FIRST_EXECUTION = 0;
  /** Copied at every execution. */
  public static final int EVERY_EXECUTION = 1;
  /** Copied back only when the program asks. */
  public static final int UNDER_DEMAND = 2;

  private DataTransferMode() {}
}
