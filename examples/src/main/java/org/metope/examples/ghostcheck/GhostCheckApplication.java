package org.metope.examples.ghostcheck;

import org.metope.examples.Application;
import org.metope.examples.Applications;
import org.metope.mesh.DriverError;
import org.metope.mesh.input.InputError;

/**
 * The {@code ghost_check} problem as a launcher application: exit 0 when every ghost cell is
 * right, 1 when any is wrong, 2 for a bad deck.
 */
public final class GhostCheckApplication implements Application {
  @Override
  public String name() {
    return "ghost_check";
  }

  @Override
  public String deckBlock() {
    return GhostCheck.BLOCK;
  }

  @Override
  public int run(Launch launch) {
    try {
      long wrong = GhostCheck.run(launch.pin(), launch.communicator(),
          launch.boundaries().apply(launch.pin()), launch.options().out());
      if (launch.communicator().rank() == 0) {
        for (String warning : Applications.unreadKeyWarnings(launch.pin(), this)) {
          launch.err().println("warning: " + warning);
        }
      }
      return wrong == 0 ? 0 : 1;
    } catch (InputError e) {
      // Every rank says it: under MPJ the launcher prints the first failing rank's line once.
      launch.err().println(e.getMessage());
      return 2;
    } catch (DriverError e) {
      launch.err().println("metope: " + e.getMessage());
      return 1;
    }
  }
}
