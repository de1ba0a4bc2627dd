package org.metope.test.packaging;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Maven local repository of its own, under the build's {@code target/}, that Metope is installed
 * into for a test, so the shared {@code ~/.m2} never receives an {@code org.metope} artifact (other
 * builds of the machine resolve from it). Third-party artifacts come from {@code ~/.m2} as a
 * {@code file://} remote (releases only, so no stale Metope snapshot there can leak in), which
 * also works offline: Maven runs with {@code -o} and {@code aether.offline.protocols=file}.
 */
final class PrivateMavenRepository {
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  private final Path dir;
  private final Path settings;

  private PrivateMavenRepository(Path dir) {
    this.dir = dir;
    this.settings = dir.resolve("settings.xml");
  }

  /** A fresh, empty repository in {@code dir} (deleted first if it exists). */
  static PrivateMavenRepository create(Path dir) throws IOException {
    FileTrees.delete(dir);
    Files.createDirectories(dir.resolve("repository"));
    PrivateMavenRepository repo = new PrivateMavenRepository(dir);
    String home = Path.of(System.getProperty("user.home"), ".m2", "repository").toUri().toString();
    String remote = "<id>home-m2</id><url>" + home + "</url>"
        + "<releases><enabled>true</enabled></releases>"
        + "<snapshots><enabled>false</enabled></snapshots>";
    Files.writeString(repo.settings, "<settings><profiles><profile><id>home</id>"
        + "<repositories><repository>" + remote + "</repository></repositories>"
        + "<pluginRepositories><pluginRepository>" + remote + "</pluginRepository>"
        + "</pluginRepositories></profile></profiles>"
        + "<activeProfiles><activeProfile>home</activeProfile></activeProfiles></settings>\n",
        StandardCharsets.UTF_8);
    return repo;
  }

  /** The local repository directory. */
  Path repository() {
    return dir.resolve("repository");
  }

  /** {@code mvn} with this repository, offline, followed by {@code args}. */
  List<String> mvn(String... args) {
    List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-o",
        "-Daether.offline.protocols=file", "-s", settings.toString(),
        "-Dmaven.repo.local=" + repository()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * A pom whose {@code validate} phase installs the artifacts the reactor under {@code root} has
   * built (its parent pom and every module's main artifact, as {@code mvn install} would place
   * them; a module that sets {@code maven.install.skip}, such as {@code test}, publishes
   * nothing), with one {@code install:install-file} execution each: one Maven run instead of one
   * per module.
   *
   * @throws IllegalStateException when a module's jar has not been built
   */
  Path installerPom(Path root) throws IOException {
    StringBuilder executions = new StringBuilder();
    executions.append(execution("parent", root.resolve("pom.xml"), root.resolve("pom.xml")));
    Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
    while (m.find()) {
      String module = m.group(1);
      Path pom = root.resolve(module).resolve("pom.xml");
      if (Files.readString(pom).contains("<maven.install.skip>true</maven.install.skip>")) {
        continue;
      }
      executions.append(execution(module, artifactOf(root, module, pom), pom));
    }
    Path installer = dir.resolve("install-metope.xml");
    Files.writeString(installer, "<project><modelVersion>4.0.0</modelVersion>"
        + "<groupId>org.metope.it</groupId><artifactId>install-metope</artifactId>"
        + "<version>1</version><packaging>pom</packaging><build><plugins><plugin>"
        + "<groupId>org.apache.maven.plugins</groupId><artifactId>maven-install-plugin</artifactId>"
        + "<version>3.1.3</version><executions>" + executions + "</executions></plugin></plugins>"
        + "</build></project>\n", StandardCharsets.UTF_8);
    return installer;
  }

  /**
   * One {@code install-file}. The packaging is given as the file's type (pom or jar): install-file
   * would otherwise take the pom's, and knows no file extension for the archetype's {@code
   * maven-archetype} packaging (which only its build extension defines).
   */
  private static String execution(String id, Path file, Path pom) {
    String type = file.toString().endsWith(".jar") ? "jar" : "pom";
    return "<execution><id>" + id + "</id><phase>validate</phase><goals><goal>install-file</goal>"
        + "</goals><configuration><file>" + file + "</file><pomFile>" + pom + "</pomFile>"
        + "<packaging>" + type + "</packaging></configuration></execution>";
  }

  /** The file {@code mvn install} would install for a module: its pom, or its packaged jar. */
  private static Path artifactOf(Path root, String module, Path pom) throws IOException {
    String text = Files.readString(pom);
    if (text.contains("<packaging>pom</packaging>")) {
      return pom;
    }
    String afterParent = text.substring(text.indexOf("</parent>"));
    Matcher id = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(afterParent);
    Matcher version = Pattern.compile("<version>([^<]+)</version>").matcher(text);
    if (!id.find() || !version.find()) {
      throw new IllegalStateException(pom + ": no artifactId or version");
    }
    Path jar = root.resolve(module).resolve("target")
        .resolve(id.group(1) + "-" + version.group(1) + ".jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: build the reactor first (mvn package,"
          + " or ./metope test, which runs mvn verify)");
    }
    // A targeted build (-pl test -am) does not rebuild modules the test module does not depend
    // on, such as the archetype: installing their old jar would test old sources.
    if (newestModification(root.resolve(module).resolve("src/main"))
        > Files.getLastModifiedTime(jar).toMillis()) {
      throw new IllegalStateException(jar + " is older than its sources: rebuild it (mvn -pl "
          + module + " package)");
    }
    return jar;
  }

  private static long newestModification(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      long newest = 0;
      for (Path p : (Iterable<Path>) walk::iterator) {
        newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
      }
      return newest;
    }
  }
}
