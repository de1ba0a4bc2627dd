package org.metope.app;

import org.metope.mesh.input.ParameterInput;

/**
 * Something a deck holds, besides an application's block, that says the deck is that
 * application's ({@link Application#deckMarks}): a key the deck sets, or a variable its outputs
 * name. Parthenon's {@code fine_advection} deck has {@code <Advection>}, as the advection
 * example's decks do, and its output names {@code advection.*} variables, the namespace of
 * fine_advection's fields: {@code DeckMark.outputVariable("advection.")}.
 *
 * <p>Looking for a mark reads no key ({@link ParameterInput#peekStringList}), so the deck's
 * unread keys are warned about as before.
 */
public final class DeckMark {
  private final String block;
  private final String key;
  /** Null when the key's presence is the mark; else the start of an output variable's name. */
  private final String variablePrefix;

  private DeckMark(String block, String key, String variablePrefix) {
    this.block = block;
    this.key = key;
    this.variablePrefix = variablePrefix;
  }

  /** The deck sets {@code block/key}. */
  public static DeckMark key(String block, String key) {
    return new DeckMark(block, key, null);
  }

  /**
   * An output block of the deck ({@code <parthenon/outputN>}) lists in {@code variables} a
   * variable whose name starts with {@code prefix}, e.g. the namespace {@code advection.}.
   */
  public static DeckMark outputVariable(String prefix) {
    return new DeckMark("parthenon/output", "variables", prefix);
  }

  /** Whether {@code pin} holds this mark. */
  public boolean heldBy(ParameterInput pin) {
    if (variablePrefix == null) {
      return pin.doesParameterExist(block, key);
    }
    for (String output : pin.blockNamesWithPrefix(block)) {
      for (String variable : pin.peekStringList(output, key)) {
        if (variable.startsWith(variablePrefix)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The mark in words: {@code Advection/vx}, or {@code an output variable advection.*}. */
  @Override
  public String toString() {
    return variablePrefix == null ? block + "/" + key
        : "an output variable " + variablePrefix + "*";
  }
}
