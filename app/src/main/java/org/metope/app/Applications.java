package org.metope.app;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * The applications on the class path (every jar's {@code
 * META-INF/services/org.metope.app.Application}, found with {@link ServiceLoader}), and the rule
 * that picks one for a deck:
 *
 * <ol>
 *   <li>{@code <metope> application = NAME} names it, by its {@link Application#name()} or by a
 *       fully qualified class name (which needs no service file);
 *   <li>otherwise the deck must have the block of exactly one application ({@code <Advection>} for
 *       {@code advection}, as Parthenon's example decks do), and one of its {@linkplain
 *       Application#deckMarks marks} where it has some. An application whose mark the deck holds
 *       wins over one with the same block and no marks ({@code fine_advection} over {@code
 *       advection}); where one application's block lies inside another's, the inner one's wins.
 * </ol>
 *
 * Any other choice between applications is the user's: one line names them and how to name one.
 *
 * Two applications with one name are refused when the registry is loaded, naming both classes.
 */
public final class Applications {
  /** The deck block of launcher settings. */
  public static final String BLOCK = ParameterInput.LAUNCHER_BLOCK;

  private final List<Application> all;
  private final ClassLoader loader;

  private Applications(List<Application> all, ClassLoader loader) {
    this.all = all;
    this.loader = loader;
  }

  /**
   * The applications the class loader of the framework sees (under MPJ multicore, the rank's own
   * loader, which holds the user's jars too).
   *
   * @throws ApplicationError when a listed class cannot be made or two share a name
   */
  public static Applications load() {
    return load(Application.class.getClassLoader());
  }

  /**
   * The applications {@code loader} sees, ordered by name.
   *
   * @throws ApplicationError when a listed class cannot be made or two share a name
   */
  public static Applications load(ClassLoader loader) {
    List<Application> found = new ArrayList<>();
    try {
      for (Application app : ServiceLoader.load(Application.class, loader)) {
        found.add(app);
      }
    } catch (ServiceConfigurationError e) {
      throw new ApplicationError("cannot load an application listed in a jar's META-INF/services/"
          + Application.class.getName() + ": " + e.getMessage());
    }
    found.sort(Comparator.comparing(Application::name));
    for (int i = 1; i < found.size(); i++) {
      Application a = found.get(i - 1);
      Application b = found.get(i);
      if (a.name().equals(b.name())) {
        throw new ApplicationError("two applications are named " + a.name() + ": "
            + a.getClass().getName() + " and " + b.getClass().getName() + " (remove one of their"
            + " jars from the class path)");
      }
    }
    return new Applications(List.copyOf(found), loader);
  }

  /** Every application found, ordered by name. */
  public List<Application> all() {
    return all;
  }

  /** The names of every application found, ordered. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    for (Application app : all) {
      names.add(app.name());
    }
    return names;
  }

  /** The deck blocks of every application found, e.g. {@code Advection}, other blocks they read included. */
  public List<String> blocks() {
    List<String> blocks = new ArrayList<>();
    for (Application app : all) {
      if (!blocks.contains(app.deckBlock())) {
        blocks.add(app.deckBlock());
      }
      for (String other : app.otherDeckBlocks()) {
        if (!blocks.contains(other)) {
          blocks.add(other);
        }
      }
    }
    return blocks;
  }

  /**
   * The blocks a deck may have besides the framework's: every application's, and that of the
   * class {@code <metope> application} names when it is one (it may be on no service list).
   */
  public List<String> blocksFor(ParameterInput pin) {
    List<String> blocks = blocks();
    if (pin.doesParameterExist(BLOCK, "application")
        && pin.getString(BLOCK, "application").contains(".")) {
      try {
        String block = byClassName(pin, pin.getString(BLOCK, "application")).deckBlock();
        if (!blocks.contains(block)) {
          blocks.add(block);
        }
      } catch (InputError e) {
        // Selecting the application reports it; the block check has nothing to add.
      }
    }
    return blocks;
  }

  /**
   * Warnings for the keys of {@code pin} that nothing read ({@link DeckCheck#unreadKeys}) once
   * {@code running} has read its deck: its own block included, other applications' blocks not.
   */
  public List<String> unreadKeyWarnings(ParameterInput pin, Application running) {
    List<String> known = new ArrayList<>(blocks());
    if (!known.contains(running.deckBlock())) {
      known.add(running.deckBlock());
    }
    List<String> others = new ArrayList<>(blocks());
    others.remove(running.deckBlock());
    return DeckCheck.unreadKeys(pin, known, others);
  }

  /** The lines {@code metope --help} prints: one per application, name, block and description. */
  public List<String> helpLines() {
    List<String> lines = new ArrayList<>();
    for (Application app : all) {
      lines.add(String.format("  %-16s <%s>  %s", app.name(), app.deckBlock(),
          app.description()));
    }
    return lines;
  }

  /**
   * The application {@code pin} asks for: the one it names, or the one its blocks and marks
   * select (the class javadoc gives the rule).
   *
   * @throws InputError when the deck names an unknown application or a class that is not one, or
   *     names none and selects none or several
   */
  public Application select(ParameterInput pin) {
    List<String> names = names();
    if (pin.doesParameterExist(BLOCK, "application")) {
      String name = pin.getString(BLOCK, "application");
      if (name.contains(".")) {
        return byClassName(pin, name);
      }
      return all.get(names.indexOf(pin.getString(BLOCK, "application", names)));
    }
    List<Application> found = new ArrayList<>();
    for (Application app : all) {
      if (pin.doesBlockExist(app.deckBlock()) && (app.deckMarks().isEmpty() || marked(app, pin))) {
        found.add(app);
      }
    }
    found = markedFirst(innermost(found), pin);
    if (found.size() == 1) {
      return found.get(0);
    }
    if (found.isEmpty()) {
      throw InputError.at(pin.deckName(), "no application is named and no application block is"
          + " present", "<" + BLOCK + "> application = NAME (one of " + String.join(", ", names)
          + "), or the block of one application: " + String.join(", ", selectors(all)));
    }
    List<String> chosen = new ArrayList<>();
    for (Application app : found) {
      chosen.add(app.name());
    }
    throw InputError.at(pin.deckName(), "the deck is for several applications: "
        + String.join(", ", selectors(found)), "one of them named, <" + BLOCK + "> application = "
        + String.join(" or ", chosen) + " (on the command line: " + BLOCK + "/application="
        + chosen.get(0) + ")");
  }

  /** Whether {@code pin} holds one of {@code app}'s marks. */
  private static boolean marked(Application app, ParameterInput pin) {
    for (DeckMark mark : app.deckMarks()) {
      if (mark.heldBy(pin)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The applications of {@code found} less those without a held mark whose block a marked one
   * shares: the mark decides between applications of one block only, so a deck with another
   * application's block as well still names both.
   */
  private static List<Application> markedFirst(List<Application> found, ParameterInput pin) {
    List<Application> kept = new ArrayList<>();
    for (Application app : found) {
      boolean outmarked = false;
      if (!marked(app, pin)) {
        for (Application other : found) {
          outmarked |= other.deckBlock().equals(app.deckBlock()) && marked(other, pin);
        }
      }
      if (!outmarked) {
        kept.add(app);
      }
    }
    return kept;
  }

  /** What selects each of {@code apps}: {@code <Advection> (advection)}, marks included. */
  private static List<String> selectors(List<Application> apps) {
    List<String> selectors = new ArrayList<>();
    for (Application app : apps) {
      List<String> marks = new ArrayList<>();
      for (DeckMark mark : app.deckMarks()) {
        marks.add(mark.toString());
      }
      selectors.add("<" + app.deckBlock() + ">" + (marks.isEmpty() ? ""
          : " with " + String.join(" or ", marks)) + " (" + app.name() + ")");
    }
    return selectors;
  }

  /**
   * The applications of {@code found} whose block no other found application's block lies
   * inside: where {@code <poisson>} and {@code <poisson/solver_params>} both name one, the deck
   * with both is the second's.
   */
  private static List<Application> innermost(List<Application> found) {
    List<Application> kept = new ArrayList<>();
    for (Application app : found) {
      boolean enclosing = false;
      for (Application other : found) {
        enclosing |= other.deckBlock().startsWith(app.deckBlock() + "/");
      }
      if (!enclosing) {
        kept.add(app);
      }
    }
    return kept;
  }

  /** {@code <metope> application = com.example.MyApp}: the class, made with its constructor. */
  private Application byClassName(ParameterInput pin, String className) {
    String expected = "an application: a name (one of " + String.join(", ", names()) + ") or the"
        + " fully qualified name of a class on the class path that implements "
        + Application.class.getName() + " with a public no-argument constructor";
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw pin.error(BLOCK, "application", expected + " (no class " + className + " is on the"
          + " class path; add its jar with -cp)");
    }
    if (!Application.class.isAssignableFrom(type)) {
      throw pin.error(BLOCK, "application", expected + " (" + className + " does not implement"
          + " it)");
    }
    try {
      return (Application) type.getConstructor().newInstance();
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
      throw pin.error(BLOCK, "application", expected + " (" + className + " cannot be made: "
          + e + ")");
    } catch (InvocationTargetException e) {
      throw pin.error(BLOCK, "application", expected + " (the constructor of " + className
          + " failed: " + e.getCause() + ")");
    }
  }
}
