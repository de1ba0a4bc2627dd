package org.metope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metope.driver.ProblemGenerator;
import org.metope.mesh.field.Packages;
import org.metope.mesh.input.ParameterInput;

class ApplicationDescriptorTest {
  private static final class Described extends DescribedApplication {
    Described(ApplicationDescriptor descriptor) {
      super(descriptor);
    }

    @Override
    public Packages processPackages(ParameterInput pin) {
      return new Packages();
    }

    @Override
    public ProblemGenerator problemGenerator(Packages packages) {
      return (md, b) -> { };
    }
  }

  @Test
  void givenADescriptor_thenTheApplicationAnswersFromItWithKeysInTheOrderGiven() {
    Application app = new Described(ApplicationDescriptor.of("heat", "Heat", "heat diffusion")
        .requiring("parthenon/mesh/ix1_bc").desiring("Heat/cfl")
        .requiring("parthenon/mesh/ox1_bc"));
    assertEquals("heat", app.name());
    assertEquals("Heat", app.deckBlock());
    assertEquals("heat diffusion", app.description());
    assertEquals(List.of("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc"), app.requiredKeys());
    assertEquals(List.of("Heat/cfl"), app.desiredKeys());
  }

  @Test
  void givenAKeyWithoutABlockOrABlankName_thenTheDescriptorIsRefused() {
    ApplicationDescriptor plain = ApplicationDescriptor.of("heat", "Heat", "");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> plain.requiring("cfl"));
    assertEquals("key=cfl must be block/key, e.g. parthenon/mesh/ix1_bc", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> plain.desiring("Heat/"));
    assertThrows(IllegalArgumentException.class,
        () -> ApplicationDescriptor.of(" ", "Heat", ""));
  }
}
