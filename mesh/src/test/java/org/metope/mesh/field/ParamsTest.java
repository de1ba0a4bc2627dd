package org.metope.mesh.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParamsTest {

  @Test
  void givenTypedParams_thenTypedGettersReturnThem() {
    Params p = new Params("adv");
    p.add("cfl", 0.45);
    p.add("nvars", 3);
    p.add("fill", true);
    p.add("profile", "wave");
    p.add("list", List.of(1, 2));
    assertEquals(0.45, p.getDouble("cfl"));
    assertEquals(3, p.getInt("nvars"));
    assertTrue(p.getBoolean("fill"));
    assertEquals("wave", p.getString("profile"));
    assertEquals(List.of(1, 2), p.get("list", List.class));
    assertEquals(List.of("cfl", "nvars", "fill", "profile", "list"), p.keys());
    assertEquals(Double.class, p.type("cfl"));
    assertEquals(Params.Mutability.IMMUTABLE, p.mutability("cfl"));
    assertFalse(p.hasKey("nope"));
  }

  @Test
  void givenAnUnwrittenParam_thenItReadsAsAnyOtherButOutputsLeaveItOut() {
    Params p = new Params("adv");
    p.add("cfl", 0.45);
    p.addUnwritten("v_const", true);
    assertTrue(p.getBoolean("v_const"));
    assertEquals(List.of("cfl", "v_const"), p.keys());
    assertTrue(p.written("cfl"));
    assertFalse(p.written("v_const"));
    assertEquals(Params.Mutability.IMMUTABLE, p.mutability("v_const"));
    assertThrows(IllegalArgumentException.class, () -> p.addUnwritten("cfl", 1.0));
  }

  @Test
  void givenWrongTypeOrMissingKey_thenErrorsNameKeyAndTypes() {
    Params p = new Params("adv");
    p.add("cfl", 0.45);
    assertEquals("param key=cfl of package=adv has type=Double, requested type=Integer",
        assertThrows(IllegalArgumentException.class, () -> p.getInt("cfl")).getMessage());
    assertEquals("param key=dt of package=adv does not exist (keys=[cfl])",
        assertThrows(IllegalArgumentException.class, () -> p.getDouble("dt")).getMessage());
    assertEquals("param key=cfl of package=adv already exists with value=0.45",
        assertThrows(IllegalArgumentException.class, () -> p.add("cfl", 1.0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> p.add("n", null));
  }

  @Test
  void givenMutability_thenOnlyMutableParamsUpdateWithTheSameType() {
    Params p = new Params("adv");
    p.add("cfl", 0.45);
    p.add("dt", 0.1, Params.Mutability.MUTABLE);
    p.add("ncycle", 1, Params.Mutability.RESTART);
    p.update("dt", 0.2);
    p.update("ncycle", 2);
    assertEquals(0.2, p.getDouble("dt"));
    assertEquals(2, p.getInt("ncycle"));
    assertEquals("param key=cfl of package=adv is immutable: add it as MUTABLE to update it",
        assertThrows(IllegalStateException.class, () -> p.update("cfl", 0.3)).getMessage());
    assertEquals("param key=dt of package=adv has type=Double, update has type=Integer",
        assertThrows(IllegalArgumentException.class, () -> p.update("dt", 1)).getMessage());
  }

  @Test
  void givenGetOrAdd_thenTheFirstValueStays() {
    Params p = new Params("adv");
    assertEquals(5, p.getOrAdd("n", 5));
    assertEquals(5, p.getOrAdd("n", 7));
  }
}
