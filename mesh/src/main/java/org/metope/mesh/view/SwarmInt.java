package org.metope.mesh.view;

import org.metope.mesh.field.Swarm;
import org.metope.mesh.field.SwarmVariable;

/**
 * An integer swarm variable on the blocks of a {@link SwarmPack}, indexed by partition block {@code
 * b}, component (for vectors and tensors, flattened row-major) and slot {@code n}.
 */
public final class SwarmInt {
  private final Swarm[] swarms;
  private final int first;
  private final int components;

  SwarmInt(Swarm[] swarms, SwarmVariable variable) {
    if (!variable.integer()) {
      throw new IllegalArgumentException("swarm variable=" + variable.name() + " is REAL");
    }
    this.swarms = swarms;
    this.first = variable.firstComponent();
    this.components = variable.components();
  }

  /** Components of the variable. */
  public int components() {
    return components;
  }

  /** Slot {@code n} of block {@code b} (component 0). */
  public int get(int b, int n) {
    return swarms[b].integer(first)[n];
  }

  /** Component {@code c} of slot {@code n} of block {@code b}. */
  public int get(int b, int c, int n) {
    return swarms[b].integer(first + c)[n];
  }

  /** Sets slot {@code n} of block {@code b} (component 0). */
  public void set(int b, int n, int value) {
    swarms[b].integer(first)[n] = value;
  }

  /** Sets component {@code c} of slot {@code n} of block {@code b}. */
  public void set(int b, int c, int n, int value) {
    swarms[b].integer(first + c)[n] = value;
  }

  /** Adds {@code delta} to slot {@code n} of block {@code b} (component 0). */
  public void add(int b, int n, int delta) {
    swarms[b].integer(first)[n] += delta;
  }

  /** Adds {@code delta} to component {@code c} of slot {@code n} of block {@code b}. */
  public void add(int b, int c, int n, int delta) {
    swarms[b].integer(first + c)[n] += delta;
  }
}
