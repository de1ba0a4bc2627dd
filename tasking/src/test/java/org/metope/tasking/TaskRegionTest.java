package org.metope.tasking;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class TaskRegionTest {

  /** A region of {@code n} lists whose one task never completes, reset for an execution. */
  private static TaskRegion waitingLists(int n) {
    TaskRegion region = new TaskCollection().addRegion(n);
    for (int p = 0; p < n; p++) {
      region.get(p).addTask(TaskId.NONE, "wait", () -> TaskStatus.INCOMPLETE);
    }
    region.reset();
    return region;
  }

  /** Claims for {@code worker} and ends the pass at once. */
  private static TaskList claimAndRelease(TaskRegion region, int worker) {
    TaskList list = region.claimNext(worker);
    list.release();
    return list;
  }

  /**
   * GIVEN two workers that began lists 0 to 3 in turn (0 and 2 by worker 0, 1 and 3 by worker 1)
   * THEN worker 1's next claim, whose turn starts at list 0, takes list 1, its own, and with its
   * own lists held it takes worker 0's list 0 rather than none. (Taking the next free list
   * whoever began it, worker 1 would take list 0 first.)
   */
  @Test
  void givenListsBegunByTwoWorkers_thenAWorkerTakesItsOwnFirstAndAnotherWhenItsOwnAreHeld() {
    TaskRegion region = waitingLists(4);
    for (int p = 0; p < 4; p++) {
      assertSame(region.get(p), claimAndRelease(region, p % 2), "list " + p + " in turn");
    }
    TaskList own = region.claimNext(1);
    assertSame(region.get(1), own);
    TaskList otherOwn = region.claimNext(1);
    assertSame(region.get(3), otherOwn);
    assertSame(region.get(0), region.claimNext(1), "its own held: worker 0's list");
    assertSame(region.get(2), region.claimNext(0));
    assertNull(region.claimNext(0), "every list held");
  }
}
