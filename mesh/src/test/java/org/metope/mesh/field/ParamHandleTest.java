package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParamHandleTest {
  private static Params params() {
    Params p = new Params("advection_package");
    p.add("cfl", 0.45);
    p.add("num_vars", 3);
    p.add("v_const", true);
    p.add("profile", "wave");
    p.add("kappa", 2.0, Params.Mutability.MUTABLE);
    return p;
  }

  @Test
  void givenHandles_thenTheyReadTheParameters() {
    Params p = params();
    assertEquals(0.45, p.doubleHandle("cfl").get());
    assertEquals(3, p.intHandle("num_vars").get());
    assertTrue(p.booleanHandle("v_const").get());
    Param<String> profile = p.handle("profile", String.class);
    assertEquals("wave", profile.get());
    assertEquals("profile", profile.key());
    assertEquals(0.45, p.handle("cfl", Number.class).get().doubleValue());
  }

  @Test
  void givenAnUpdate_thenAHandleMadeBeforeSeesIt() {
    Params p = params();
    DoubleParam kappa = p.doubleHandle("kappa");
    p.update("kappa", 5.0);
    assertEquals(5.0, kappa.get());
    assertEquals(List.of("cfl", "num_vars", "v_const", "profile", "kappa"), p.keys());
  }

  @Test
  void givenAMisspeltKey_thenTheHandleFailsAtSetUpNamingTheNearestKey() {
    SetupError e = assertThrows(SetupError.class, () -> params().doubleHandle("kapa"));
    assertEquals("package advection_package has no parameter kapa (did you mean kappa?); add it"
        + " with addParam at set-up (keys=[cfl, num_vars, v_const, profile, kappa])",
        e.getMessage());
  }

  @Test
  void givenAWrongType_thenTheHandleFailsAtSetUp() {
    SetupError e = assertThrows(SetupError.class, () -> params().intHandle("cfl"));
    assertEquals("parameter cfl of package advection_package has type Double, not Integer",
        e.getMessage());
    assertFalse(params().hasKey("kapa"));
  }
}
