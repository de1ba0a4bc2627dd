package org.metope.tasking;

import java.util.ArrayList;
import java.util.List;

/** Test helper in the tasking package: the names of a list's tasks, in order. */
public final class TaskNames {
  private TaskNames() {}

  /** Every task name of {@code list}, in insertion order. */
  public static List<String> of(TaskList list) {
    List<String> names = new ArrayList<>();
    for (int t = 0; t < list.size(); t++) {
      names.add(list.taskName(t));
    }
    return names;
  }
}
