/**
 * Particles crossing blocks and ranks (Parthenon's {@code Swarm::Send}, {@code Receive} and the
 * swarm boundary conditions): {@link org.metope.mesh.swarm.SwarmExchangePlan} says where a
 * particle that left its block goes, {@link org.metope.mesh.swarm.SwarmExchange} moves it there
 * in task-list tasks; {@link org.metope.mesh.swarm.Deposition} deposits particles to cell fields.
 * The particles themselves live in {@code mesh.field} ({@code Swarm}).
 */
package org.metope.mesh.swarm;
