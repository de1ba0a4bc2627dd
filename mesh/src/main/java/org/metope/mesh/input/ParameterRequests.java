package org.metope.mesh.input;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the program asked of a deck: every key a getter or setter requested, with its type and
 * default, and the keys it declared known without reading them. This is what tells a typo from
 * a value nobody needs ({@link DeckCheck}, {@link ParameterInput#unusedParameters()}) and what
 * catches one key requested with two different defaults, a programming error.
 */
final class ParameterRequests {
  /** What a key was requested as, and with which default (null for a required request). */
  private record Query(String type, String defaultText) {}

  private final Map<String, Query> queries = new HashMap<>();
  /** {@code block/key} of keys the program understands but does not read in this run. */
  private final Set<String> known = new HashSet<>();

  /**
   * Remembers a request of {@code path} ({@code block/key}); a required request has no default.
   *
   * @throws IllegalStateException when the key was requested before with another default
   */
  void request(String path, String type, String defaultText) {
    Query previous = queries.get(path);
    if (previous == null || previous.defaultText() == null) {
      queries.put(path, new Query(type, defaultText));
    } else if (defaultText != null && !defaultText.equals(previous.defaultText())) {
      throw new IllegalStateException("parameter " + path + " requested with default="
          + previous.defaultText() + " and default=" + defaultText);
    }
  }

  /** Remembers that the program set {@code path}, unless a getter requested it already. */
  void set(String path, String type) {
    queries.putIfAbsent(path, new Query(type, null));
  }

  void declareKnown(String path) {
    known.add(path);
  }

  boolean wasRequested(String path) {
    return queries.containsKey(path);
  }

  /** {@code block/key} of every key requested, set or declared known. */
  Set<String> knownPaths() {
    Set<String> paths = new HashSet<>(queries.keySet());
    paths.addAll(known);
    return paths;
  }
}
