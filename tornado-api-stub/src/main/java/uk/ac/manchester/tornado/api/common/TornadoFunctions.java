package uk.ac.manchester.tornado.api.common;

/** Stand-in: the functional interfaces of task method references. */
public final class TornadoFunctions {
  private TornadoFunctions() {}

  /** A task of 2 parameters. */
  @FunctionalInterface
  public interface Task2<T1, T2> {
    void apply(T1 arg1, T2 arg2);
  }

  /** A task of 3 parameters. */
  @FunctionalInterface
  public interface Task3<T1, T2, T3> {
    void apply(T1 arg1, T2 arg2, T3 arg3);
  }

  /** A task of 4 parameters. */
  @FunctionalInterface
  public interface Task4<T1, T2, T3, T4> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4);
  }

  /** A task of 5 parameters. */
  @FunctionalInterface
  public interface Task5<T1, T2, T3, T4, T5> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5);
  }

  /** A task of 6 parameters. */
  @FunctionalInterface
  public interface Task6<T1, T2, T3, T4, T5, T6> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6);
  }

  /** A task of 7 parameters. */
  @FunctionalInterface
  public interface Task7<T1, T2, T3, T4, T5, T6, T7> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7);
  }

  /** A task of 8 parameters. */
  @FunctionalInterface
  public interface Task8<T1, T2, T3, T4, T5, T6, T7, T8> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8);
  }

  /** A task of 9 parameters. */
  @FunctionalInterface
  public interface Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8, T9 arg9);
  }

  /** A task of 10 parameters. */
  @FunctionalInterface
  public interface Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> {
    void apply(T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8, T9 arg9, T10 arg10);
  }
}
