package org.metope.examples;

import java.util.ArrayList;
import java.util.List;
import org.metope.examples.advection.AdvectionApplication;
import org.metope.examples.burgers.BurgersApplication;
import org.metope.examples.ghostcheck.GhostCheckApplication;
import org.metope.examples.sparseadvection.SparseAdvectionApplication;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * The applications the launcher knows, and the rule that picks one for a deck:
 *
 * <ol>
 *   <li>{@code <metope> application = NAME} names it explicitly;
 *   <li>otherwise the deck must have the block of exactly one application ({@code <Advection>} for
 *       {@code advection}, as Parthenon's example decks do).
 * </ol>
 */
public final class Applications {
  /** The deck block of launcher settings. */
  public static final String BLOCK = "metope";

  private Applications() {}

  /** Every registered application. */
  public static List<Application> all() {
    return List.of(new AdvectionApplication(), new BurgersApplication(),
        new GhostCheckApplication(), new SparseAdvectionApplication());
  }

  /** The deck block of every registered application, e.g. {@code Advection}. */
  public static List<String> blocks() {
    List<String> blocks = new ArrayList<>();
    for (Application app : all()) {
      blocks.add(app.deckBlock());
    }
    return blocks;
  }

  /**
   * Warnings for the keys of {@code pin} that nothing read ({@link DeckCheck#unreadKeys}) once
   * {@code running} has read its deck; other applications' blocks are not reported.
   */
  public static List<String> unreadKeyWarnings(ParameterInput pin, Application running) {
    List<String> others = new ArrayList<>(blocks());
    others.remove(running.deckBlock());
    return DeckCheck.unreadKeys(pin, blocks(), others);
  }

  /**
   * The application {@code pin} asks for.
   *
   * @throws InputError when the deck names an unknown application, or names none and has the
   *     blocks of none or of several
   */
  public static Application select(ParameterInput pin) {
    List<Application> apps = all();
    List<String> names = new ArrayList<>();
    List<String> blocks = new ArrayList<>();
    for (Application app : apps) {
      names.add(app.name());
      blocks.add("<" + app.deckBlock() + "> (" + app.name() + ")");
    }
    if (pin.doesParameterExist(BLOCK, "application")) {
      String name = pin.getString(BLOCK, "application", names);
      return apps.get(names.indexOf(name));
    }
    List<Application> found = new ArrayList<>();
    for (Application app : apps) {
      if (pin.doesBlockExist(app.deckBlock())) {
        found.add(app);
      }
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    String expected = "<" + BLOCK + "> application = NAME (one of " + String.join(", ", names)
        + "), or the block of one application: " + String.join(", ", blocks);
    throw InputError.at(pin.deckName(), found.isEmpty()
        ? "no application is named and no application block is present"
        : "several application blocks are present", expected);
  }
}
