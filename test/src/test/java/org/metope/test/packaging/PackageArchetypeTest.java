package org.metope.test.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
  /** Per Maven run; a quiet machine needs about 15 s for the slowest. */
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
      maven(work, repo.mvn("-q",
          "org.apache.maven.plugins:maven-archetype-plugin:3.3.1:generate",
          "-DarchetypeGroupId=org.metope", "-DarchetypeArtifactId=metope-package-archetype",
          "-DarchetypeVersion=0.1.0-SNAPSHOT", "-DgroupId=org.example.heat",
          "-DartifactId=heat", "-Dversion=1.0", "-Dpackage=org.example.heat",
          "-DinteractiveMode=false"));
      Path project = work.resolve("heat");
      ProcessResult build = maven(project, repo.mvn("package"));
      // The generated project's own test ran and passed (not skipped, not absent).
      assertTrue(build.output().contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"),
          build.output());
      assertTrue(Files.isRegularFile(project.resolve("target/heat-1.0.jar")));
    } finally {
      FileTrees.delete(work);
    }
  }

  private static ProcessResult maven(Path dir, List<String> command) throws Exception {
    ProcessResult r = ProcessResult.run(dir, MAVEN_TIMEOUT_SECONDS, Map.of(),
        command.toArray(new String[0]));
    assertEquals(0, r.exitCode(), () -> String.join(" ", command) + "\n" + r.output());
    return r;
  }
}
