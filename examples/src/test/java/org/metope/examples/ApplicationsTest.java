package org.metope.examples;

import org.metope.app.Applications;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
   * Parthenon's fine_advection deck has {@code <Advection>} too: its application is picked by
   * name only, so an advection deck stays advection's (were it picked by its block, that deck
   * would have two applications' blocks and stop).
   */
  @Test
  void givenTheFineAdvectionName_thenItAndTheAdvectionBlockAloneStaysAdvection() {
    assertEquals("fine_advection", Applications.load().select(
        pin("<metope>\napplication = fine_advection\n<Advection>\ncfl = 0.45\n")).name());
    assertEquals("advection", Applications.load().select(pin("<Advection>\nvx = 1\n")).name());
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
        + " <burgers> (burgers), <diffusion> (diffusion), <field_loop> (field_loop), <ghost_check>"
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
