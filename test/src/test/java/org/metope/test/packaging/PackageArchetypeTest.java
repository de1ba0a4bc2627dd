package org.metope.test.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metope.test.ProcessResult;
import org.metope.test.RepoPaths;

/**
 * What a user does, for real and isolated: install Metope into a private local repository, make a
 * package project with {@code mvn archetype:generate} in a directory outside the repository,
 * build it offline (which runs the generated project's own test) and run its deck with the
 * repository's launcher.
 */
class PackageArchetypeTest {
  /** Per Maven or launcher run; a quiet machine needs about 15 s for the slowest. */
  private static final long MAVEN_TIMEOUT_SECONDS = 300;

  @Test
  void generatedPackageBuildsPassesItsTestAndRunsItsDeck() throws Exception {
    Path root = RepoPaths.root();
    PrivateMavenRepository repo =
        PrivateMavenRepository.create(root.resolve("test/target/package-archetype-it"));
    Path installer = repo.installerPom(root);
    maven(root, repo.mvn("-q", "-f", installer.toString(), "validate"));
    assertTrue(Files.isRegularFile(repo.repository().resolve(
        "org/metope/metope-bom/0.1.0-SNAPSHOT/metope-bom-0.1.0-SNAPSHOT.pom")));

    Path work = Files.createTempDirectory("metope-package-");
    try {
      runTutorial(root, repo, work);
    } finally {
      FileTrees.delete(work);
    }
  }

  /**
   * Runs the commands of docs/PACKAGES.md's first section in {@code work}: {@code mvn} with the
   * private repository, {@code cd}, and {@code $METOPE/metope} with this repository's launcher.
   * The project's build must run its test and pass it; every run of its deck must write the same
   * history, holding the Gaussian's integral, {@code 2 pi width^2} (a periodic box: no heat
   * leaves), in every record, the last at {@code tlim}.
   */
  private static void runTutorial(Path root, PrivateMavenRepository repo, Path work)
      throws Exception {
    Path dir = work;
    List<String> histories = new ArrayList<>();
    boolean built = false;
    for (String line : Tutorial.commands(root.resolve("docs/PACKAGES.md"), "archetype")) {
      List<String> words = List.of(line.split(" "));
      if (words.get(0).equals("cd")) {
        dir = dir.resolve(words.get(1));
      } else if (words.get(0).equals("mvn")) {
        ProcessResult r = maven(dir, repo.mvn(words.subList(1, words.size())
            .toArray(new String[0])));
        built |= r.output().contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0");
      } else if (words.get(0).equals("$METOPE/metope")) {
        histories.add(launch(dir, words.subList(1, words.size())));
      } else {
        throw new AssertionError("docs/PACKAGES.md: a command the test cannot run: " + line);
      }
    }
    assertTrue(built, "the generated project's own test ran and passed");
    assertEquals(3, histories.size());
    String history = histories.get(0);
    for (String other : histories) {
      assertEquals(history, other);
    }
    List<String> records = history.lines().filter(l -> !l.startsWith("#")).toList();
    assertEquals(11, records.size(), history);
    for (String record : records) {
      assertEquals(String.format("%12.5e", 2 * Math.PI * 0.05 * 0.05),
          record.substring(record.length() - 12), history);
    }
    assertTrue(records.get(10).startsWith("  1.00000e-03"), history);
  }

  /** Runs the repository's launcher with {@code args} in {@code dir}; returns the history. */
  private static String launch(Path dir, List<String> args) throws Exception {
    Files.deleteIfExists(dir.resolve("my_package.out1.hst"));
    List<String> command = new ArrayList<>(List.of(RepoPaths.launcher().toString()));
    command.addAll(args);
    ProcessResult r = ProcessResult.run(dir, MAVEN_TIMEOUT_SECONDS,
        Map.of("METOPE_SKIP_BUILD", "1"), command.toArray(new String[0]));
    assertEquals(0, r.exitCode(), () -> String.join(" ", command) + "\n" + r.output());
    return Files.readString(dir.resolve("my_package.out1.hst"));
  }

  private static ProcessResult maven(Path dir, List<String> command) throws Exception {
    ProcessResult r = ProcessResult.run(dir, MAVEN_TIMEOUT_SECONDS, Map.of(),
        command.toArray(new String[0]));
    assertEquals(0, r.exitCode(), () -> String.join(" ", command) + "\n" + r.output());
    return r;
  }
}
