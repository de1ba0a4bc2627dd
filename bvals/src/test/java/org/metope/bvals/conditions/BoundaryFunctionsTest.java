package org.metope.bvals.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.BoundaryFace;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.geometry.IndexDomain;
import org.metope.mesh.geometry.IndexShape;
import org.metope.mesh.geometry.TopologicalElement;
import org.metope.mesh.input.InputError;
import org.metope.mesh.input.ParameterInput;

/**
 * GIVEN a user condition that sets one field and delegates the others to the built-in outflow,
 * THEN the delegated fields' ghosts are exactly outflow's (each ghost equal to the nearest
 * interior cell along the normal) and the user's field has the user's values; a face naming a
 * condition registered for no such face is one deck error.
 */
class BoundaryFunctionsTest {
  private static final double INFLOW = 7.5;

  private static String deck(String ix1) {
    return "<parthenon/mesh>\nnx1 = 8\nx1min = 0\nx1max = 1\nix1_bc = " + ix1
        + "\nox1_bc = outflow\nnx2 = 8\nx2min = 0\nx2max = 1\nix2_bc = periodic\n"
        + "ox2_bc = periodic\nnx3 = 1\nx3min = 0\nx3max = 1\n"
        + "<parthenon/meshblock>\nnx1 = 4\nnx2 = 4\n";
  }

  private static StateDescriptor twoFields() {
    StateDescriptor pkg = new StateDescriptor("pkg");
    Metadata m = Metadata.builder(Metadata.CELL, Metadata.INDEPENDENT, Metadata.FILL_GHOST)
        .shape(2).build();
    pkg.addField("rho", m);
    pkg.addField("mom", m);
    return pkg;
  }

  /** A mesh of {@code deck}, its interiors set to a function, boundary conditions applied. */
  private static Mesh applied(String deckText, BoundaryFunctions registry) {
    ParameterInput pin = ParameterInput.parse("bc.in", deckText, List.of());
    Mesh mesh = Mesh.build(MeshConfiguration.fromInput(pin, registry.names()),
        InProcessCluster.singleRank());
    Packages packages = new Packages();
    packages.add(twoFields());
    mesh.initializeFields(packages, List.of("base"));
    InOneBoundaryCommunication comm = InOneBoundaryCommunication.fromInput(pin,
        KernelBackends.create("jvm", 1));
    comm.boundaryConditions().use(registry);
    comm.setup(mesh);
    for (MeshData md : mesh.meshData("base")) {
      fillInterior(md);
      comm.boundaryConditions().apply(md, false);
    }
    return mesh;
  }

  private static double value(int field, int gid, int c, int j, int i) {
    return 1000.0 * field + 100.0 * gid + 10.0 * c + j + 0.01 * i;
  }

  private static void fillInterior(MeshData md) {
    for (int b = 0; b < md.numBlocks(); b++) {
      IndexShape s = md.block(b).cellBounds();
      for (int f = 0; f < md.state().numFields(); f++) {
        for (int c = 0; c < 2; c++) {
          for (int j = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
              j <= s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC); j++) {
            for (int i = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
                i <= s.end(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
              md.data()[md.index(f, b, c, 0, j, i)] = value(f, md.block(b).gid(), c, j, i);
            }
          }
        }
      }
    }
  }

  @Test
  void givenAnInflowForOneFieldDelegatingTheRest_thenTheRestHaveOutflowGhosts() {
    BoundaryFunctions registry = new BoundaryFunctions();
    int rho = 0;
    IntPredicate others = field -> field != rho;
    registry.register(BoundaryFace.INNER_X1, "inflow", (md, b, face, coarse) -> {
      IndexShape s = md.block(b).cellBounds();
      for (int c = 0; c < 2; c++) {
        for (int j = 0; j < s.entireNcells(1); j++) {
          for (int i = 0; i < s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC); i++) {
            md.data()[md.index(rho, b, c, 0, j, i)] = INFLOW;
          }
        }
      }
      BoundaryFunctions.outflow(md, b, face, coarse, others);
    });
    Mesh user = applied(deck("inflow"), registry);
    Mesh outflow = applied(deck("outflow"), new BoundaryFunctions());
    int wrong = 0;
    int checked = 0;
    for (int p = 0; p < user.meshData("base").size(); p++) {
      MeshData mu = user.meshData("base").get(p);
      MeshData mo = outflow.meshData("base").get(p);
      for (int b = 0; b < mu.numBlocks(); b++) {
        if (mu.block(b).loc().lx1() != 0) {
          continue;
        }
        IndexShape s = mu.block(b).cellBounds();
        int is = s.start(0, IndexDomain.INTERIOR, TopologicalElement.CC);
        int js = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
        int je = s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC);
        for (int c = 0; c < 2; c++) {
          for (int j = js; j <= je; j++) {
            for (int i = 0; i < is; i++) {
              checked++;
              double nearest = value(1, mu.block(b).gid(), c, j, is);
              wrong += mu.data()[mu.index(1, b, c, 0, j, i)] == nearest ? 0 : 1;
              wrong += mu.data()[mu.index(1, b, c, 0, j, i)]
                  == mo.data()[mo.index(1, b, c, 0, j, i)] ? 0 : 1;
              wrong += mu.data()[mu.index(rho, b, c, 0, j, i)] == INFLOW ? 0 : 1;
              wrong += mo.data()[mo.index(rho, b, c, 0, j, i)]
                  == value(rho, mo.block(b).gid(), c, j, is) ? 0 : 1;
            }
          }
        }
      }
    }
    // Two blocks on the inner x1 face, 2 components, 4 rows, nghost = 2 (the default).
    assertEquals(2 * 2 * 4 * 2, checked);
    assertEquals(0, wrong);
  }

  /**
   * A package condition (Parthenon's {@code UserBoundaryFunctions}) runs after the deck's outflow
   * on every physical face: with {@code fixedFace} on field {@code mom}, each of its ghosts beyond
   * the outer x1 face is minus its mirror image across the face; {@code rho} keeps outflow's
   * ghosts. Control: without the package condition {@code mom}'s ghosts are outflow's.
   */
  @Test
  void givenAPackageFixedFaceCondition_thenItRunsAfterTheDecksOutflow() {
    int mom = 1;
    BoundaryFunctions registry = new BoundaryFunctions().addPackageConditionEveryFace(
        (md, b, face, coarse) -> BoundaryFunctions.fixedFace(md, b, face, coarse,
            field -> field == mom));
    for (boolean withPackage : new boolean[] {true, false}) {
      Mesh mesh = applied(deck("outflow"), withPackage ? registry : new BoundaryFunctions());
      int wrong = 0;
      int checked = 0;
      for (MeshData md : mesh.meshData("base")) {
        for (int b = 0; b < md.numBlocks(); b++) {
          if (md.block(b).loc().lx1() != 1) {
            continue;
          }
          IndexShape s = md.block(b).cellBounds();
          int ie = s.end(0, IndexDomain.INTERIOR, TopologicalElement.CC);
          int js = s.start(1, IndexDomain.INTERIOR, TopologicalElement.CC);
          int je = s.end(1, IndexDomain.INTERIOR, TopologicalElement.CC);
          for (int c = 0; c < 2; c++) {
            for (int j = js; j <= je; j++) {
              for (int g = 1; g <= 2; g++) {
                checked++;
                int gid = md.block(b).gid();
                double expected = withPackage ? -value(mom, gid, c, j, ie + 1 - g)
                    : value(mom, gid, c, j, ie);
                wrong += md.data()[md.index(mom, b, c, 0, j, ie + g)] == expected ? 0 : 1;
                wrong += md.data()[md.index(0, b, c, 0, j, ie + g)] == value(0, gid, c, j, ie)
                    ? 0 : 1;
              }
            }
          }
        }
      }
      assertEquals(2 * 2 * 4 * 2, checked);
      assertEquals(0, wrong, "withPackage=" + withPackage);
    }
    assertTrue(registry.hasPackageConditions());
    assertFalse(new BoundaryFunctions().hasPackageConditions());
  }

  @Test
  void givenAFaceNamingAConditionRegisteredOnlyForAnotherFace_thenOneDeckError() {
    BoundaryFunctions registry = new BoundaryFunctions();
    registry.register(BoundaryFace.OUTER_X1, "inflow", (md, b, face, coarse) -> { });
    InputError e = assertThrows(InputError.class, () -> applied(deck("inflow"), registry));
    assertEquals("bc.in:5: parthenon/mesh/ix1_bc = \"inflow\": expected a boundary condition"
        + " with a function for this face: one of periodic, outflow, reflecting (the application"
        + " registers no function inflow for ix1_bc)", e.getMessage());
  }

  @Test
  void givenAnUnregisteredName_thenTheDeckCheckNamesTheAcceptedConditions() {
    InputError e = assertThrows(InputError.class,
        () -> applied(deck("inflow"), new BoundaryFunctions()));
    assertEquals("bc.in:5: parthenon/mesh/ix1_bc = \"inflow\": expected a boundary condition:"
        + " one of periodic, outflow, reflecting, user", e.getMessage());
  }

  @Test
  void givenBuiltInOrDuplicateNames_thenRegistrationIsMisuse() {
    BoundaryFunctions registry = new BoundaryFunctions();
    assertThrows(IllegalArgumentException.class, () -> registry.register(BoundaryFace.INNER_X1,
        "outflow", (md, b, face, coarse) -> { }));
    registry.register(BoundaryFace.INNER_X1, (md, b, face, coarse) -> { });
    assertThrows(IllegalArgumentException.class, () -> registry.register(BoundaryFace.INNER_X1,
        (md, b, face, coarse) -> { }));
    assertEquals(List.of("user"), registry.names());
    assertEquals(List.of(), registry.names(BoundaryFace.OUTER_X1));
  }
}
