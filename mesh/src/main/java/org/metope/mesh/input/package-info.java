/**
 * Input decks in Parthenon's format ({@link org.metope.mesh.input.ParameterInput}) and the
 * one-line user error ({@link org.metope.mesh.input.InputError}) every bad deck or value becomes.
 */
package org.metope.mesh.input;
