package org.metope.app;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the launcher knows of an application before running it: the {@link Application} methods
 * that only describe it, as one value, for a {@link DescribedApplication}.
 *
 * <pre>{@code
 * ApplicationDescriptor.of("advection", "Advection", "Parthenon's advection example")
 *     .requiring("parthenon/mesh/ix1_bc", "parthenon/mesh/ox1_bc")
 *     .desiring("Advection/cfl")
 * }</pre>
 *
 * @param name the name a deck gives in {@code <metope> application} ({@link Application#name})
 * @param deckBlock the block of the application's own keys ({@link Application#deckBlock})
 * @param description one line for {@code metope --help} ({@link Application#description})
 * @param requiredKeys keys the deck must set, as {@code block/key} ({@link
 *     Application#requiredKeys})
 * @param desiredKeys keys the deck should set ({@link Application#desiredKeys})
 */
public record ApplicationDescriptor(String name, String deckBlock, String description,
    List<String> requiredKeys, List<String> desiredKeys) {

  /**
   * Copies the key lists.
   *
   * @throws IllegalArgumentException for a blank name or deck block, or a key without a block
   */
  public ApplicationDescriptor {
    if (name == null || name.isBlank() || deckBlock == null || deckBlock.isBlank()) {
      throw new IllegalArgumentException("an application needs a name and a deck block: name="
          + name + " deckBlock=" + deckBlock);
    }
    requiredKeys = blockKeys(requiredKeys);
    desiredKeys = blockKeys(desiredKeys);
  }

  /** An application that requires and desires no keys. */
  public static ApplicationDescriptor of(String name, String deckBlock, String description) {
    return new ApplicationDescriptor(name, deckBlock, description, List.of(), List.of());
  }

  /** This descriptor with {@code keys} ({@code block/key}) added to the required ones. */
  public ApplicationDescriptor requiring(String... keys) {
    return new ApplicationDescriptor(name, deckBlock, description, plus(requiredKeys, keys),
        desiredKeys);
  }

  /** This descriptor with {@code keys} ({@code block/key}) added to the desired ones. */
  public ApplicationDescriptor desiring(String... keys) {
    return new ApplicationDescriptor(name, deckBlock, description, requiredKeys,
        plus(desiredKeys, keys));
  }

  private static List<String> plus(List<String> list, String... keys) {
    List<String> all = new ArrayList<>(list);
    all.addAll(Arrays.asList(keys));
    return all;
  }

  private static List<String> blockKeys(List<String> keys) {
    for (String key : keys) {
      int slash = key.lastIndexOf('/');
      if (slash <= 0 || slash == key.length() - 1) {
        throw new IllegalArgumentException("key=" + key + " must be block/key, e.g."
            + " parthenon/mesh/ix1_bc");
      }
    }
    return List.copyOf(keys);
  }
}
