package org.metope.test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module map of docs/DESIGN.md, checked on the compiled main classes of every module: no
 * cycles between the modules' packages, and no package depends on one its module may not know.
 * Maven already refuses an import of a module that is not a dependency; these rules also catch
 * what a transitive dependency would let through (for example bvals importing the driver).
 */
class ArchitectureTest {

  /** Each module's root package and the Metope modules it must not know about. */
  private static final Map<String, String[]> FORBIDDEN = Map.of(
      "tasking", new String[] {"kernels", "comm", "mesh", "amr", "outputs", "driver", "bvals",
          "solvers", "app", "examples"},
      "kernels", new String[] {"tasking", "comm", "mesh", "amr", "outputs", "driver", "bvals",
          "solvers", "app", "examples"},
      "comm", new String[] {"tasking", "kernels", "mesh", "amr", "outputs", "driver", "bvals",
          "solvers", "app", "examples"},
      "mesh", new String[] {"amr", "outputs", "driver", "bvals", "solvers", "app", "examples"},
      "amr", new String[] {"outputs", "driver", "bvals", "solvers", "app", "examples"},
      "outputs", new String[] {"amr", "driver", "bvals", "solvers", "app", "examples"},
      "driver", new String[] {"amr", "bvals", "solvers", "app", "examples"},
      "bvals", new String[] {"amr", "outputs", "driver", "solvers", "app", "examples"},
      "solvers", new String[] {"amr", "driver", "bvals", "app", "examples"},
      "app", new String[] {"examples"});

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/")
            && !location.contains("-tests.jar"))
        .importPackages("org.metope");
  }

  @Test
  void modulesFormNoCycle() {
    slices().matching("org.metope.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void everyModuleKnowsOnlyWhatItMay() {
    for (Map.Entry<String, String[]> e : FORBIDDEN.entrySet()) {
      String[] packages = new String[e.getValue().length];
      for (int i = 0; i < packages.length; i++) {
        packages[i] = "org.metope." + e.getValue()[i] + "..";
      }
      ArchRule rule = noClasses().that().resideInAPackage("org.metope." + e.getKey() + "..")
          .should().dependOnClassesThat().resideInAnyPackage(packages)
          .because("docs/DESIGN.md: " + e.getKey() + " must not know about "
              + String.join(", ", e.getValue()));
      rule.check(classes);
    }
  }

  /**
   * Other modules meet {@code bvals} through its task API (package {@code bvals}) and the boundary
   * conditions ({@code bvals.conditions}); its channels and buffers ({@code bvals.channel}) are its
   * own. The TornadoVM backend ({@code kernels.tornado}) is reached only by name, through
   * {@code KernelBackends}, so nothing outside it needs TornadoVM's classes to load.
   */
  @Test
  void internalsStayInside() {
    noClasses().that().resideOutsideOfPackage("org.metope.bvals..")
        .should().dependOnClassesThat().resideInAPackage("org.metope.bvals.channel..")
        .because("docs/DESIGN.md: bvals.channel is internal to bvals").check(classes);
    noClasses().that().resideOutsideOfPackage("org.metope.kernels.tornado..")
        .should().dependOnClassesThat().resideInAPackage("org.metope.kernels.tornado..")
        .because("docs/DESIGN.md: the TornadoVM backend is loaded by name").check(classes);
  }

  /**
   * No cycle between any two packages, with one known exception inside module mesh: the field
   * storage ({@code mesh.field}) holds the {@code MeshBlock}s it stores fields for, and
   * {@code Mesh} holds the field storage; and packages' step diagnostics receive the clock, {@code
   * SimTime}, as Parthenon's do. Moving MeshBlock next to its storage is left to a later change;
   * only those two arrows (to a class, not the package) are waived, so any new cycle fails. (The
   * launcher finds the examples' applications with a ServiceLoader, so the examples need no
   * waiver.)
   */
  @Test
  void packagesFormNoCycle() {
    slices().matching("org.metope.(**)")
        .should().beFreeOfCycles()
        .ignoreDependency(JavaClass.Predicates.resideInAPackage("org.metope.mesh.field"),
            DescribedPredicate.describe("org.metope.mesh.MeshBlock or org.metope.mesh.SimTime",
                (JavaClass c) -> c.getName().equals("org.metope.mesh.MeshBlock")
                    || c.getName().equals("org.metope.mesh.SimTime")))
        .check(classes);
  }

  /**
   * A package's physics lives in its package, not in the framework: no class outside {@code
   * org.metope.examples} is named after an example package (as {@code BurgersKernels}, burgers'
   * device flux bodies, was in the kernel module). Device bodies included: a package writes them
   * on the kernel API in its own module.
   */
  @Test
  void examplePhysicsStaysInTheExamples() {
    assertEquals(List.of(), physicsOutsideTheExamples(classes),
        "example physics in framework modules");
  }

  /** The negative control: a class named after burgers outside the examples is named. */
  @Test
  void givenAClassNamedAfterAnExampleOutsideTheExamples_thenTheRuleNamesIt() {
    JavaClasses lookalike = new ClassFileImporter().importClasses(BurgersLookalike.class);
    assertEquals(List.of(BurgersLookalike.class.getName()), physicsOutsideTheExamples(lookalike));
  }

  /**
   * Top-level classes of {@code candidates} outside the examples whose name starts with an
   * example's package (the examples' packages are those of the main classes).
   */
  private static List<String> physicsOutsideTheExamples(JavaClasses candidates) {
    Set<String> examples = new TreeSet<>();
    for (JavaClass c : classes) {
      String p = c.getPackageName();
      if (p.startsWith("org.metope.examples.")) {
        examples.add(p.substring("org.metope.examples.".length()).split("\\.")[0]);
      }
    }
    assertTrue(examples.contains("burgers"), "example packages: " + examples);
    List<String> found = new ArrayList<>();
    for (JavaClass c : candidates) {
      String name = c.getSimpleName().toLowerCase(java.util.Locale.ROOT);
      if (c.isTopLevelClass() && !c.getPackageName().startsWith("org.metope.examples")
          && examples.stream().anyMatch(name::startsWith)) {
        found.add(c.getName());
      }
    }
    return found;
  }
}

/** A class outside the examples named after one, for the rule's negative control. */
final class BurgersLookalike {
  private BurgersLookalike() {}
}
