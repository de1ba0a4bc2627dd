package org.metope.examples;

import org.metope.app.Applications;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.metope.mesh.input.DeckCheck;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

class ApplicationsTest {
  private static ParameterInput pin(String text) {
    return ParameterInput.parse("a.in", text, List.of());
  }

  @Test
  void givenAnAdvectionBlock_thenTheAdvectionApplication() {
    assertEquals("advection", Applications.load().select(pin("<Advection>\ncfl = 0.3\n")).name());
  }

  /**
   * Parthenon's fine_advection deck has {@code <Advection>}, as advection's do, and outputs {@code
   * advection.*} variables, the namespace of fine_advection's fields: that mark selects
   * fine_advection; without it the block is advection's (control), and a name wins over both.
   */
  @Test
  void givenAnAdvectionBlockAndAFineAdvectionOutput_thenFineAdvectionUnlessNamed() {
    String fine = "<Advection>\ncfl = 0.45\n<parthenon/output0>\nfile_type = hdf5\n"
        + "variables = advection.scalar\n";
    assertEquals("fine_advection", Applications.load().select(pin(fine)).name());
    assertEquals("advection", Applications.load().select(
        pin(fine.replace("advection.scalar", "advected"))).name());
    assertEquals("advection", Applications.load().select(
        ParameterInput.parse("a.in", fine, List.of("metope/application=advection"))).name());
    assertEquals("fine_advection", Applications.load().select(
        pin("<metope>\napplication = fine_advection\n<Advection>\ncfl = 0.45\n")).name());
  }

  @Test
  void givenTwoApplicationsBlocks_thenOneLineNamingBothAndHowToChoose() {
    InputError e = assertThrows(InputError.class,
        () -> Applications.load().select(pin("<Advection>\ncfl = 0.3\n<burgers>\ncfl = 0.8\n")));
    assertEquals("a.in: the deck is for several applications: <Advection> (advection), <burgers>"
        + " (burgers): expected one of them named, <metope> application = advection or burgers"
        + " (on the command line: metope/application=advection)", e.getMessage());
  }

  /**
   * A mark decides between the applications of one block only: Parthenon's fine_advection deck
   * with a {@code <burgers>} block as well is for fine_advection or burgers, never silently the
   * first (it was, and the burgers block went unread without a warning).
   */
  @Test
  void givenAMarkedApplicationAndAnotherApplicationsBlock_thenOneLineNamingBoth() {
    InputError e = assertThrows(InputError.class, () -> Applications.load().select(pin(
        "<Advection>\ncfl = 0.45\n<parthenon/output0>\nfile_type = hdf5\n"
        + "variables = advection.scalar\n<burgers>\ncfl = 0.8\n")));
    assertTrue(e.getMessage().startsWith("a.in: the deck is for several applications: <burgers>"
        + " (burgers), <Advection> with "), e.getMessage());
    assertTrue(e.getMessage().contains("(fine_advection): expected one of them named, <metope>"
        + " application = burgers or fine_advection"), e.getMessage());
  }

  /**
   * Every deck in inputs/ runs the application of the example it comes from, as its header
   * says: Parthenon's advection, fine_advection, sparse_advection, particle and poisson decks,
   * Parthenon-VIBE's burgers, and Metope's own examples; the mesh_* decks hold a mesh only (for
   * {@code -m}) and select none.
   */
  @Test
  void givenEveryShippedDeck_thenTheApplicationOfItsExample() throws Exception {
    Map<String, String> expected = new TreeMap<>(Map.ofEntries(
        Map.entry("advection.in", "advection"), Map.entry("advection_1d.in", "advection"),
        Map.entry("advection_2d.in", "advection"), Map.entry("advection_amr_2d.in", "advection"),
        Map.entry("burgers.in", "burgers"), Map.entry("burgers_small.in", "burgers"),
        Map.entry("diffusion_2d.in", "diffusion"), Map.entry("diffusion_3d.in", "diffusion"),
        Map.entry("field_loop.in", "field_loop"), Map.entry("fine_advection.in", "fine_advection"),
        Map.entry("particle_leapfrog.in", "particle_leapfrog"),
        Map.entry("particle_tracers.in", "particle_tracers"), Map.entry("poisson.in", "poisson"),
        Map.entry("poisson_gmg.in", "poisson_gmg"),
        Map.entry("sparse_advection.in", "sparse_advection")));
    Map<String, String> chosen = new TreeMap<>();
    try (Stream<Path> files = Files.list(Path.of("../inputs"))) {
      for (Path deck : files.filter(f -> f.toString().endsWith(".in")).toList()) {
        String name = deck.getFileName().toString();
        ParameterInput pin = ParameterInput.load(deck, List.of());
        if (name.startsWith("mesh_")) {
          assertThrows(InputError.class, () -> Applications.load().select(pin), name);
        } else if (name.startsWith("ghost_check_")) {
          assertEquals("ghost_check", Applications.load().select(pin).name(), name);
        } else {
          chosen.put(name, Applications.load().select(pin).name());
        }
      }
    }
    assertEquals(expected, chosen);
  }

  @Test
  void givenABurgersBlock_thenTheBurgersApplication() {
    assertEquals("burgers", Applications.load().select(pin("<burgers>\ncfl = 0.8\n")).name());
  }

  @Test
  void givenAnExplicitName_thenItWinsAndAnUnknownNameIsOneLine() {
    assertEquals("advection", Applications.load().select(pin("<metope>\napplication = advection\n"))
        .name());
    InputError e = assertThrows(InputError.class,
        () -> Applications.load().select(pin("<metope>\napplication = vibe\n")));
    assertEquals("a.in:2: metope/application = \"vibe\": expected one of advection, burgers,"
        + " diffusion, field_loop, fine_advection, ghost_check, particle_leapfrog,"
        + " particle_tracers, poisson, poisson_gmg, sparse_advection",
        e.getMessage());
  }

  @Test
  void givenNoApplicationBlock_thenOneLineSayingHowToChoose() {
    InputError e = assertThrows(InputError.class,
        () -> Applications.load().select(pin("<parthenon/mesh>\nnx1 = 8\n")));
    assertEquals("a.in: no application is named and no application block is present: expected"
        + " <metope> application = NAME (one of advection, burgers, diffusion, field_loop,"
        + " fine_advection, ghost_check, particle_leapfrog, particle_tracers, poisson, poisson_gmg,"
        + " sparse_advection), or the block of one application: <Advection> (advection),"
        + " <burgers> (burgers), <diffusion> (diffusion), <field_loop> (field_loop), <Advection>"
        + " with an output variable advection.* (fine_advection), <ghost_check>"
        + " (ghost_check), <Particles> (particle_leapfrog), <Tracers>"
        + " (particle_tracers), <poisson> (poisson), <poisson/solver_params> (poisson_gmg),"
        + " <sparse_advection> (sparse_advection)",
        e.getMessage());
  }

  /**
   * Parthenon's poisson decks have {@code <poisson>}, its poisson_gmg decks also {@code
   * <poisson/solver_params>}: the inner block picks poisson_gmg, the outer alone poisson.
   */
  @Test
  void givenABlockInsideAnotherApplicationsBlock_thenTheInnerOnesApplication() {
    assertEquals("poisson", Applications.load().select(pin("<poisson>\nradius = 0.1\n")).name());
    assertEquals("poisson_gmg", Applications.load().select(
        pin("<poisson>\nradius = 0.1\n<poisson/solver_params>\nsmoother = SRJ2\n")).name());
  }

  @Test
  void givenParthenonsOwnDecks_thenEveryBlockIsKnown() throws Exception {
    Path decks = Path.of(ApplicationsTest.class.getResource("/parthenon").toURI());
    List<Path> found;
    try (Stream<Path> files = Files.walk(decks)) {
      found = files.filter(f -> f.toString().endsWith(".in")).sorted().toList();
    }
    assertTrue(found.size() >= 10, found.toString());
    for (Path deck : found) {
      ParameterInput pin = ParameterInput.load(deck, List.of());
      assertEquals(List.of(), DeckCheck.unknownBlocks(pin, Applications.load().blocks()),
          deck.toString());
    }
  }
}
