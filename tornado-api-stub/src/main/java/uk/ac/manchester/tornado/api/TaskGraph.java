package uk.ac.manchester.tornado.api;

import uk.ac.manchester.tornado.api.common.TornadoFunctions;

/** Stand-in: a graph of tasks and the transfers around them. */
public class TaskGraph {
  /** Stand-in constructor. */
  public TaskGraph(String name) {
    throw Stub.called();
  }

  /** Stand-in: arrays copied to the device, mode from {@code DataTransferMode}. */
  public TaskGraph transferToDevice(final int mode, Object... objects) {
    throw Stub.called();
  }

  /** Stand-in: arrays copied back to the host, mode from {@code DataTransferMode}. */
  public TaskGraph transferToHost(final int mode, Object... objects) {
    throw Stub.called();
  }

  /** Stand-in: freezes the graph. */
  public TaskGraph consumeFromDevice(Object... objects) {
    throw Stub.called();
  }

  public TaskGraph persistOnDevice(Object... objects) {
    throw Stub.called();
  }

  public ImmutableTaskGraph snapshot() {
    throw Stub.called();
  }

  /** Stand-in: a task of 2 parameters. */
  public <T1, T2> TaskGraph task(String id, TornadoFunctions.Task2<T1, T2> code, T1 arg1, T2 arg2) {
    throw Stub.called();
  }

  /** Stand-in: a task of 3 parameters. */
  public <T1, T2, T3> TaskGraph task(String id, TornadoFunctions.Task3<T1, T2, T3> code, T1 arg1, T2 arg2, T3 arg3) {
    throw Stub.called();
  }

  /** Stand-in: a task of 4 parameters. */
  public <T1, T2, T3, T4> TaskGraph task(String id, TornadoFunctions.Task4<T1, T2, T3, T4> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4) {
    throw Stub.called();
  }

  /** Stand-in: a task of 8 parameters. */
  public <T1, T2, T3, T4, T5> TaskGraph task(String id, TornadoFunctions.Task5<T1, T2, T3, T4, T5> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5) {
    throw Stub.called();
  }

  public <T1, T2, T3, T4, T5, T6> TaskGraph task(String id, TornadoFunctions.Task6<T1, T2, T3, T4, T5, T6> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6) {
    throw Stub.called();
  }

  /** Stand-in: a task of 7 parameters. */
  public <T1, T2, T3, T4, T5, T6, T7> TaskGraph task(String id, TornadoFunctions.Task7<T1, T2, T3, T4, T5, T6, T7> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7) {
    throw Stub.called();
  }

  public <T1, T2, T3, T4, T5, T6, T7, T8> TaskGraph task(String id, TornadoFunctions.Task8<T1, T2, T3, T4, T5, T6, T7, T8> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8) {
    throw Stub.called();
  }

  /** Stand-in: a task of 9 parameters. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9> TaskGraph task(String id, TornadoFunctions.Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8, T9 arg9) {
    throw Stub.called();
  }

  /** Stand-in: a task of 10 parameters. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> TaskGraph task(String id, TornadoFunctions.Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> code, T1 arg1, T2 arg2, T3 arg3, T4 arg4, T5 arg5, T6 arg6, T7 arg7, T8 arg8, T9 arg9, T10 arg10) {
    throw Stub.called();
  }
}
