package org.metope.test.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced blocks of docs/PACKAGES.md with the marker line before each: {@code <!-- file: PATH
 * -->} (the block is that file), {@code <!-- excerpt: PATH -->} (the block is found verbatim in
 * it) or {@code <!-- run: NAME -->} (commands a test runs).
 */
final class Tutorial {
  /** The values the tutorial's {@code archetype:generate} command gives the template. */
  static final Map<String, String> GENERATED = Map.of("${package}", "org.example.heat",
      "${groupId}", "org.example.heat", "${artifactId}", "heat", "${version}", "1.0",
      "${metopeVersion}", "0.1.0-SNAPSHOT");
  /** Where the archetype's template lives; its files are shown as generated. */
  static final String TEMPLATE = "package-archetype/src/main/resources/archetype-resources/";

  private static final Pattern MARKER = Pattern.compile("<!-- (file|excerpt|run): (\\S+) -->");

  /** A fenced block and its marker ({@code kind} is null when there is none). */
  record Block(int line, String kind, String target, String text) {}

  private Tutorial() {}

  /** Every fenced block of {@code doc}, in order. */
  static List<Block> blocks(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    List<Block> blocks = new ArrayList<>();
    for (int n = 0; n < lines.size(); n++) {
      if (!lines.get(n).startsWith("```")) {
        continue;
      }
      int open = n;
      StringBuilder text = new StringBuilder();
      for (n++; n < lines.size() && !lines.get(n).equals("```"); n++) {
        text.append(lines.get(n)).append('\n');
      }
      Matcher m = open > 0 ? MARKER.matcher(lines.get(open - 1)) : null;
      boolean marked = m != null && m.matches();
      blocks.add(new Block(open + 1, marked ? m.group(1) : null, marked ? m.group(2) : null,
          text.toString()));
    }
    return blocks;
  }

  /** The command lines of the block marked {@code run: name}. */
  static List<String> commands(Path doc, String name) throws IOException {
    for (Block b : blocks(doc)) {
      if ("run".equals(b.kind()) && b.target().equals(name)) {
        return b.text().lines().toList();
      }
    }
    throw new IllegalStateException(doc + " has no block marked run: " + name);
  }

  /** A file as the tutorial shows it: template files with the generated values put in. */
  static String shown(Path root, String path) throws IOException {
    String text = Files.readString(root.resolve(path));
    if (path.startsWith(TEMPLATE)) {
      for (Map.Entry<String, String> e : GENERATED.entrySet()) {
        text = text.replace(e.getKey(), e.getValue());
      }
    }
    return text;
  }
}
